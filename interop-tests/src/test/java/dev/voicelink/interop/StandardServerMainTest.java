package dev.voicelink.interop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedServer.class)
class StandardServerMainTest {

  @Test void theConsoleNamesTheIssuerTheClientsAndThePeople(StandardAuthServer server) {
    String console = StandardServerMain.describe(server);

    assertThat(console).startsWith("Spring Authorization Server (RFC 8628 device grant, OpenID Connect) on "
        + server.issuer() + "\n");
    assertThat(console).contains("  issuer                " + server.issuer() + "\n",
        "  device authorization  " + server.issuer() + "/oauth2/device_authorization\n",
        "  token                 " + server.issuer() + "/oauth2/token\n",
        "  speaker-public  none                 secret (none)                 scopes openid profile voicelink.entities\n",
        "  speaker-basic   client_secret_basic  secret speaker-basic-secret   scopes openid profile voicelink.entities\n",
        "  backend-post    client_secret_post   secret backend-post-secret    scopes voicelink.entities\n",
        "  alice           password alice-password\n");
    for (InteropAccounts.Client client : InteropAccounts.CLIENTS) assertThat(console).contains("  " + client.id() + " ");
    for (InteropAccounts.User user : InteropAccounts.USERS) assertThat(console).contains("  " + user.username() + " ");
  }
}
