package dev.voicelink.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Uploaded dynamic-entity data. An upload is processed on the server clock: uploaded, then processing
 * from 10 s, packaged from 60 s, in effect from 5 min after the upload. For each resource and owner, the
 * newest upload in effect is the one used; so a new upload replaces the earlier data once it takes effect.
 */
final class ResourceStore {
  static final long PROCESSING_AFTER_MILLIS = 10_000L;
  static final long PACKAGED_AFTER_MILLIS = 60_000L;
  static final long IN_EFFECT_AFTER_MILLIS = 5 * 60_000L;

  enum Stage { UPLOADED, PROCESSING, PACKAGED, IN_EFFECT }

  static final class Upload {
    final String sid;
    final String namespace;
    final EntityDefinition definition;
    final @Nullable String owner;
    final int recordCount;
    /** Emptied once a newer upload of its resource and owner is in effect: it is never used again. */
    volatile List<Map<String, String>> records;
    final long uploadedAt;

    Upload(String sid, EntityDefinition definition, @Nullable String owner, List<Map<String, String>> records,
        long uploadedAt) {
      this.sid = sid;
      this.namespace = definition.namespace();
      this.definition = definition;
      this.owner = owner;
      this.recordCount = records.size();
      this.records = Collections.unmodifiableList(new ArrayList<>(records));
      this.uploadedAt = uploadedAt;
    }

    Stage stage(long now) {
      long age = now - uploadedAt;
      if (age >= IN_EFFECT_AFTER_MILLIS) return Stage.IN_EFFECT;
      if (age >= PACKAGED_AFTER_MILLIS) return Stage.PACKAGED;
      if (age >= PROCESSING_AFTER_MILLIS) return Stage.PROCESSING;
      return Stage.UPLOADED;
    }
  }

  private final Map<String, Upload> bySid = new HashMap<>();
  private final Map<String, List<Upload>> byOwner = new HashMap<>();

  synchronized Upload add(EntityDefinition definition, @Nullable String owner, List<Map<String, String>> records,
      long now) {
    Upload u = new Upload(Ids.random("psn", 12), definition, owner, records, now);
    bySid.put(u.sid, u);
    List<Upload> list = byOwner.get(key(definition.resName(), owner));
    if (list == null) byOwner.put(key(definition.resName(), owner), list = new ArrayList<>());
    // In upload-time order, whatever order concurrent uploads finish decoding in: the newest wins.
    int at = list.size();
    while (at > 0 && list.get(at - 1).uploadedAt > now) at--;
    list.add(at, u);
    forgetSuperseded(list, now);
    return u;
  }

  /**
   * Lets go of the records of the uploads older than the newest in effect, which can never take
   * effect again, so that a server left running for days keeps one copy of each resource's data (their
   * sids still answer, with their record counts).
   */
  private static void forgetSuperseded(List<Upload> list, long now) {
    for (int i = list.size() - 1; i > 0; i--) {
      if (list.get(i).stage(now) == Stage.IN_EFFECT) {
        for (Upload old : list.subList(0, i)) old.records = Collections.emptyList();
        list.subList(0, i).clear();
        return;
      }
    }
  }

  synchronized @Nullable Upload bySid(String sid) {
    return bySid.get(sid);
  }

  /** The newest upload of this resource and owner that is in effect at {@code now}; null if none. */
  synchronized @Nullable Upload inEffect(String resName, @Nullable String owner, long now) {
    List<Upload> list = byOwner.get(key(resName, owner));
    if (list == null) return null;
    forgetSuperseded(list, now);
    for (int i = list.size() - 1; i >= 0; i--) {
      if (list.get(i).stage(now) == Stage.IN_EFFECT) return list.get(i);
    }
    return null;
  }

  /**
   * The records of the upload {@link #inEffect} names, taken under the lock (empty if none): a newer
   * upload that takes effect meanwhile lets go of them only for later readers.
   */
  synchronized List<Map<String, String>> recordsInEffect(String resName, @Nullable String owner,
      long now) {
    Upload u = inEffect(resName, owner, now);
    return u == null ? Collections.<Map<String, String>>emptyList() : u.records;
  }

  private static String key(String resName, @Nullable String owner) {
    return resName + '\n' + owner;
  }

  synchronized int size() {
    return bySid.size();
  }
}
