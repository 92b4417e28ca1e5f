package dev.voicelink.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voicelink.auth.internal.AuthResults;
import dev.voicelink.entity.internal.EntityResults;
import org.junit.jupiter.api.Test;

/** A seam reaches its owner's implementation before anything else has touched the owner. */
class SeamTest {
  static final Seam<String> INSTALLED = new Seam<>(Installs.class);
  static final Seam<String> EMPTY = new Seam<>(InstallsNothing.class);

  /** Touched by nothing but its seam: only {@link Seam#get()} can have initialized it. */
  static final class Installs {
    static {
      INSTALLED.install("installed");
    }
  }

  static final class InstallsNothing {
  }

  @Test void getRunsTheOwnersStaticInitializerFirst() {
    assertThat(INSTALLED.get()).isEqualTo("installed");
    assertThat(INSTALLED.get()).isEqualTo("installed");
  }

  @Test void aSecondInstallIsRefused() {
    INSTALLED.get();
    assertThatThrownBy(() -> INSTALLED.install("again"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(Installs.class.getName() + " already installed");
    assertThat(INSTALLED.get()).isEqualTo("installed");
  }

  @Test void anOwnerThatInstallsNothingIsNamed() {
    assertThatThrownBy(EMPTY::get)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(InstallsNothing.class.getName() + " installed nothing");
  }

  @Test void theSeamsOfThisModuleReachTheirOwners() {
    assertThat(ClientCore.Access.SEAM.get()).isNotNull();
    assertThat(AuthResults.SEAM.get()).isNotNull();
    assertThat(EntityResults.SEAM.get()).isNotNull();
  }
}
