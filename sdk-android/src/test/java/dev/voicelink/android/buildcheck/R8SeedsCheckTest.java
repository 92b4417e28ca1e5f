package dev.voicelink.android.buildcheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class R8SeedsCheckTest {
  private static final String SEEDS = String.join("\n",
      "okhttp3.internal.publicsuffix.PublicSuffixDatabase",
      "com.example.App",
      "com.example.App: void main(java.lang.String[])",
      "");

  @Test
  void passesWhenEveryRequiredEntryIsASeed() throws Exception {
    assertThat(check(SEEDS, "", "# comment\n\ncom.example.App\ncom.example.App:  void main(java.lang.String[])\n"))
        .isEmpty();
  }

  @Test
  void namesAnEntryNoRuleKeeps() throws Exception {
    assertThat(check(SEEDS, "", "com.example.App\ncom.example.Reflected: int field\n"))
        .containsExactly("not kept by any rule (missing from -printseeds): com.example.Reflected: int field");
  }

  @Test
  void namesAWhollyRemovedClassAndARemovedMember() throws Exception {
    String usage = "com.example.Gone\ncom.example.Partly\n    int field\n    void helper()\n";
    assertThat(check(SEEDS, usage, "com.example.Gone\ncom.example.Partly: void helper()\n"))
        .containsExactly(
            "removed by R8 (listed in -printusage): com.example.Gone",
            "removed by R8 (listed in -printusage): com.example.Partly: void helper()");
  }

  @Test
  void aPartlyShrunkClassIsNotReportedAsRemoved() throws Exception {
    String usage = "com.example.App\n    void unused()\n";
    assertThat(check(SEEDS, usage, "com.example.App\n")).isEmpty();
  }

  @Test
  void anEmptyRequiredListFails() throws Exception {
    assertThat(check(SEEDS, "", "# nothing\n"))
        .containsExactly("the required list is empty: nothing would be checked");
  }

  private static List<String> check(String seeds, String usage, String required) throws Exception {
    return R8SeedsCheck.check(new StringReader(seeds), new StringReader(usage), new StringReader(required));
  }
}
