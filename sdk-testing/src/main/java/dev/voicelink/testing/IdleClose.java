package dev.voicelink.testing;

/**
 * When a server built with {@link ReferenceServer.Builder#keepAliveTimeout} closes a kept-alive
 * connection that has been idle for the timeout. Constants only: usable from any thread.
 */
public enum IdleClose {
  /**
   * When the time is up, as Node's HTTP server, nginx and load balancers do: a connection idle for
   * the timeout is closed by a sweep, every 50 ms of real time (a {@linkplain ServerClock#manual
   * manual} clock is swept each time it advances). A client that looks before it sends sees the
   * connection closed; one that does not races the close.
   */
  WHEN_IDLE,
  /**
   * The losing side of that race, every time: the connection stays open until the next request
   * arrives on it, and is closed then, before the server reads a byte of the request. The client
   * has sent a request the server never processed, on a connection it had every reason to reuse.
   */
  AS_REQUEST_ARRIVES
}
