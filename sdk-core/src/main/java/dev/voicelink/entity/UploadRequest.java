package dev.voicelink.entity;

import dev.voicelink.core.internal.Utf8Line;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * One web API upload: which application uploads ({@code appid}), which resource ({@link
 * ResourceDefinition}), whose data it is ({@link PersParam}) and the records.
 *
 * <p>{@link Builder#build()} checks that the {@code pers_param} fits the definition's dimension; the
 * records themselves are checked by {@link EntityWebApi#uploadResource} before it sends anything.
 *
 * <pre>{@code
 * UploadRequest request = UploadRequest.builder()
 *     .appid("5f1a2b3c")
 *     .definition(contacts)
 *     .persParam(PersParam.user(authId))
 *     .records(RecordSource.fromFile(new File("contacts.jsonl")))
 *     .progressListener(mainThread, (written, total) -> bar.setProgress(written, total)) // optional
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe if its record source is.
 */
public final class UploadRequest {
  private final String appid;
  private final ResourceDefinition definition;
  private final PersParam persParam;
  private final RecordSource records;
  private final @Nullable Executor progressExecutor;
  private final @Nullable UploadProgressListener progressListener;

  private UploadRequest(Builder builder) {
    this.appid = builder.appid;
    this.definition = builder.definition;
    this.persParam = builder.persParam;
    this.records = builder.records;
    this.progressExecutor = builder.progressExecutor;
    this.progressListener = builder.progressListener;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder that starts with everything of this request, its progress listener included: to send
   * the same records with another listener, or for another owner.
   */
  public Builder newBuilder() {
    Builder builder = new Builder();
    builder.appid = appid;
    builder.definition = definition;
    builder.persParam = persParam;
    builder.records = records;
    builder.progressExecutor = progressExecutor;
    builder.progressListener = progressListener;
    return builder;
  }

  public String appid() {
    return appid;
  }

  public ResourceDefinition definition() {
    return definition;
  }

  public PersParam persParam() {
    return persParam;
  }

  public RecordSource records() {
    return records;
  }

  /** Where {@link #progressListener()} is called; null when there is no listener. */
  @Nullable Executor progressExecutor() {
    return progressExecutor;
  }

  /** Told how far the upload's body has been sent; null when none was set. */
  @Nullable UploadProgressListener progressListener() {
    return progressListener;
  }

  @Override public String toString() {
    return "UploadRequest{appid=" + appid + ", res_name=" + definition.name() + ", pers_param="
        + persParam.toJson() + "}";
  }

  /** Builds an {@link UploadRequest}. Not thread-safe. */
  public static final class Builder {
    private @Nullable String appid;
    private @Nullable ResourceDefinition definition;
    private @Nullable PersParam persParam;
    private @Nullable RecordSource records;
    private @Nullable Executor progressExecutor;
    private @Nullable UploadProgressListener progressListener;

    Builder() {
    }

    /** The application identifier, as in the client configuration. */
    public Builder appid(String appid) {
      if (appid == null || appid.trim().isEmpty()) {
        throw new IllegalArgumentException("appid must not be empty: it is the application identifier"
            + " from the console");
      }
      Utf8Line.checkNoLoneSurrogate("appid", appid);
      this.appid = appid;
      return this;
    }

    public Builder definition(ResourceDefinition definition) {
      if (definition == null) throw new IllegalArgumentException("definition must not be null");
      this.definition = definition;
      return this;
    }

    /** The upload owner: {@link PersParam#application}, {@link PersParam#user} or {@link PersParam#custom}. */
    public Builder persParam(PersParam persParam) {
      if (persParam == null) {
        throw new IllegalArgumentException("persParam must not be null: an upload needs its owner");
      }
      this.persParam = persParam;
      return this;
    }

    public Builder records(RecordSource records) {
      if (records == null) throw new IllegalArgumentException("records must not be null");
      this.records = records;
      return this;
    }

    /**
     * Reports the upload's progress to {@code listener}, called on {@code executor} (the main thread's
     * executor for a progress bar, {@code Runnable::run} for the uploading thread itself): at most
     * every 100 ms and once when the whole body has been sent. See {@link UploadProgressListener}.
     */
    public Builder progressListener(Executor executor, UploadProgressListener listener) {
      if (executor == null) throw new IllegalArgumentException("executor must not be null");
      if (listener == null) throw new IllegalArgumentException("listener must not be null");
      this.progressExecutor = executor;
      this.progressListener = listener;
      return this;
    }

    /** @throws IllegalStateException if a part is missing; IllegalArgumentException on a mismatch */
    public UploadRequest build() {
      if (appid == null) throw new IllegalStateException("appid is required");
      if (definition == null) throw new IllegalStateException("definition is required");
      if (persParam == null) {
        throw new IllegalStateException("persParam is required: "
            + PersParam.uploadShape(definition.dimension()));
      }
      if (records == null) throw new IllegalStateException("records are required");
      persParam.checkUploadFor(definition);
      return new UploadRequest(this);
    }
  }
}
