/// How long a test waits for something that must happen: a liveness bound for a loaded 2-core machine
/// running the whole suite at once (where a test that takes half a second alone takes twenty), not a
/// measure of speed. A wait for something that must not happen names its own, shorter, time.
public let livenessBound = Duration.seconds(30)
