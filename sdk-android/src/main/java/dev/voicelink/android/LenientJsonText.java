package dev.voicelink.android;

/**
 * Turns a config text in the style of the platform's cfg files into strict JSON: drops a leading
 * byte-order mark and {@code //} and {@code /* *}{@code /} comments. Text inside JSON strings is kept
 * as is, so {@code "https://host"} survives. Line breaks inside removed comments are kept, so the
 * line numbers of later errors stay true.
 */
final class LenientJsonText {
  private LenientJsonText() {
  }

  static String strip(String text) {
    int start = !text.isEmpty() && text.charAt(0) == '\uFEFF' ? 1 : 0;
    StringBuilder out = new StringBuilder(text.length());
    boolean inString = false;
    int i = start;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (inString) {
        out.append(c);
        if (c == '\\' && i + 1 < n) {
          out.append(text.charAt(i + 1));
          i += 2;
          continue;
        }
        if (c == '"') inString = false;
        i++;
      } else if (c == '"') {
        inString = true;
        out.append(c);
        i++;
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '/') {
        i += 2;
        while (i < n && text.charAt(i) != '\n' && text.charAt(i) != '\r') i++;
      } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
        int end = text.indexOf("*/", i + 2);
        if (end < 0) {
          throw new IllegalArgumentException("config has a /* comment that is never closed");
        }
        for (int j = i + 2; j < end; j++) {
          char skipped = text.charAt(j);
          if (skipped == '\n') out.append('\n');
        }
        out.append(' ');
        i = end + 2;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
