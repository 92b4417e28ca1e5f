package dev.voicelink.entity;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a record must hold (protocol 2.5): every field of the definition, as a string, the main field
 * not empty nor blank. {@link Records} reads a record by a quick path (a walk that only says
 * "certainly good" or "not sure") and, when that is not sure, by a checked path that words the
 * refusal. Both ask these rules, so that a rule is written once and the two paths cannot drift apart:
 * the checked path words the very {@link Rule} the quick path was told, with {@link #refusal}, or
 * {@link #lacks} for a missing field.
 *
 * <p>A field's value is seen as a region of a string: the quick scan of a line hands over the
 * characters between the quotes without copying them.
 *
 * <p>Immutable; the fields seen are kept by the caller, one array per pass.
 */
final class RecordRules {
  /**
   * A rule that a field's value can break, and how its refusal reads after {@code "record N of R: "}.
   * A class, not an enum: R8 8.5, shrinking an app, stops with an internal error on {@link #accept}
   * once it has turned an enum of these into ints.
   */
  static final class Rule {
    static final Rule STRING = new Rule("field ", " must be a string; was ", true);
    /** The main field names the entity. */
    static final Rule MAIN_NOT_EMPTY = new Rule("main field ", " must not be empty", false);
    /** The platform takes a main field of only spaces and control characters as empty (code 32117). */
    static final Rule MAIN_NOT_BLANK = new Rule("main field ",
        " must not be blank (it has only spaces or control characters)", false);

    private final String beforeKey;
    private final String afterKey;
    private final boolean saysWhatWasFound;

    private Rule(String beforeKey, String afterKey, boolean saysWhatWasFound) {
      this.beforeKey = beforeKey;
      this.afterKey = afterKey;
      this.saysWhatWasFound = saysWhatWasFound;
    }

    /** @param found what the value was instead, as {@code JsonReader.Token} names it */
    String words(String key, String found) {
      return beforeKey + key + afterKey + (saysWhatWasFound ? found : "");
    }
  }

  private final ResourceName name;
  private final List<String> fields;
  private final boolean hasMainField;

  /**
   * @param fields the fields every record needs; the first is the main field when {@code
   *     hasMainField}
   */
  private RecordRules(ResourceName name, List<String> fields, boolean hasMainField) {
    this.name = name;
    this.fields = fields;
    this.hasMainField = hasMainField;
  }

  static RecordRules of(ResourceDefinition definition) {
    return new RecordRules(definition.name(), definition.fields(), true);
  }

  /** The rules of a resource whose definition is not at hand: no field is required. */
  static RecordRules anyFields(ResourceName name) {
    return new RecordRules(name, Collections.<String>emptyList(), false);
  }

  ResourceName name() {
    return name;
  }

  /** A fresh array for {@link #begin}, {@link #accept} and {@link #missing}: one per pass. */
  boolean[] newSeen() {
    return new boolean[fields.size()];
  }

  /** Starts a record: no field seen yet. */
  void begin(boolean[] seen) {
    Arrays.fill(seen, false);
  }

  /** The index of {@code key} among the fields, or -1 when the rules ask nothing of it. */
  int indexOf(@Nullable String key) {
    return key == null ? -1 : indexOf(key, 0, key.length());
  }

  /** The index of the field named by {@code text[start, start + length)}, or -1. */
  int indexOf(String text, int start, int length) {
    for (int i = 0, size = fields.size(); i < size; i++) {
      String field = fields.get(i);
      if (field.length() == length && text.regionMatches(start, field, 0, length)) return i;
    }
    return -1;
  }

  /**
   * Takes the value of field {@code index} (from {@link #indexOf}, so not -1): {@code
   * value[start, end)}, or null for anything but a string (a JSON {@code null}, a number, an
   * object...). Marks the field seen and returns null when the value keeps the rules, else the first
   * rule it breaks.
   */
  @Nullable Rule accept(boolean[] seen, int index, @Nullable String value, int start, int end) {
    if (value == null) return Rule.STRING;
    if (index == 0 && hasMainField) {
      if (start == end) return Rule.MAIN_NOT_EMPTY;
      if (isBlank(value, start, end)) return Rule.MAIN_NOT_BLANK;
    }
    seen[index] = true;
    return null;
  }

  /** {@link #accept(boolean[], int, String, int, int)} of the whole of {@code value}. */
  @Nullable Rule accept(boolean[] seen, int index, @Nullable String value) {
    return accept(seen, index, value, 0, value == null ? 0 : value.length());
  }

  /** The first field of the definition that the record lacks (not seen), or -1 when it has all. */
  int missing(boolean[] seen) {
    for (int i = 0; i < seen.length; i++) {
      if (!seen[i]) return i;
    }
    return -1;
  }

  /** The refusal of record {@code number}, at {@code position}, for breaking {@code rule}. */
  InvalidResourceException refusal(Rule rule, String key, String found, String position,
      int number) {
    return new InvalidResourceException(position + " of " + name + ": " + rule.words(key, found),
        key, number);
  }

  /** The refusal of a record that lacks field {@code index} (see {@link #missing}). */
  InvalidResourceException lacks(int index, String position, int number) {
    String field = fields.get(index);
    return new InvalidResourceException(position + " of " + name + " lacks the field " + field
        + "; every record needs " + describeFields(), field, number);
  }

  private String describeFields() {
    StringBuilder result = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) result.append(i == fields.size() - 1 ? " and " : ", ");
      result.append(fields.get(i));
      if (i == 0 && hasMainField) result.append(" (non-empty)");
    }
    return result.toString();
  }

  /** Whether {@code text[start, end)} has no character above a space, as {@code trim()} counts. */
  private static boolean isBlank(String text, int start, int end) {
    for (int i = start; i < end; i++) {
      if (text.charAt(i) > ' ') return false;
    }
    return true;
  }
}
