package dev.voicelink.android.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voicelink.android.AgentConstants;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Agent's error tables in docs/errors.md and docs/agent.md list every {@code ERROR_} constant of
 * {@link AgentConstants} with its value, and nothing else: an app that matches the numbers the docs give
 * must match what the SDK sends.
 */
class ErrorCodeTablesTest {
  private static final Pattern ROW = Pattern.compile("(?m)^\\| (6\\d{4}) \\| `(ERROR_[A-Z_]+)` \\|");

  @Test void errorsMdListsEveryAgentErrorCodeWithItsValue() throws Exception {
    assertThat(rows("errors.md")).isEqualTo(constants());
  }

  @Test void agentMdListsEveryAgentErrorCodeWithItsValue() throws Exception {
    assertThat(rows("agent.md")).isEqualTo(constants());
  }

  private static Map<String, Integer> constants() throws IllegalAccessException {
    Map<String, Integer> codes = new TreeMap<>();
    for (Field f : AgentConstants.class.getFields()) {
      if (f.getName().startsWith("ERROR_") && Modifier.isStatic(f.getModifiers())) {
        codes.put(f.getName(), f.getInt(null));
      }
    }
    assertThat(codes).as("ERROR_ constants").hasSizeGreaterThanOrEqualTo(10);
    return codes;
  }

  private static Map<String, Integer> rows(String doc) throws IOException {
    Path file = Paths.get("..", "docs", doc);
    Matcher m = ROW.matcher(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    Map<String, Integer> rows = new TreeMap<>();
    while (m.find()) {
      Integer before = rows.put(m.group(2), Integer.parseInt(m.group(1)));
      assertThat(before).as(doc + " lists " + m.group(2) + " once").isNull();
    }
    return rows;
  }
}
