package dev.voicelink.interop;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link StandardAuthServer} with the default settings for every test class of the run that asks for it
 * ({@code @ExtendWith(SharedServer.class)}, then a {@code StandardAuthServer} parameter): started on first
 * use, stopped when the run ends, its journal cleared before each test. Tests that need other settings
 * start a server of their own.
 */
public final class SharedServer implements ParameterResolver, BeforeEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedServer.class);

  /** Closes the server when JUnit closes the root context's store, at the end of the run. */
  private record Running(StandardAuthServer server) implements ExtensionContext.Store.CloseableResource {
    @Override public void close() {
      server.close();
    }
  }

  static StandardAuthServer server(ExtensionContext context) {
    return context.getRoot().getStore(NAMESPACE)
        .getOrComputeIfAbsent("server", key -> new Running(StandardAuthServer.builder().start()), Running.class)
        .server();
  }

  @Override public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == StandardAuthServer.class;
  }

  @Override public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return server(context);
  }

  @Override public void beforeEach(ExtensionContext context) {
    server(context).journal().clear();
  }
}
