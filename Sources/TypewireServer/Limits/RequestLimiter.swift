/// Per-user token buckets for REST requests, shared by every request of a node (``RateLimiters``: the
/// table holds only users seen lately).
typealias RequestLimiter = SharedRateLimiters<String>
