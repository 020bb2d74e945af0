import Hummingbird

/// Stands in front of Hummingbird's `FileMiddleware` (2.28) for two of its answers that a public server
/// must not give:
///
/// - A path that starts with `//` (`GET //js`) was answered `301 Location: //js/`, which a browser reads
///   as a redirect to the host `js`: such a path is answered 404.
/// - A `Range` past the file's end (`bytes=999999-`) was answered 206 with a negative `Content-Length`:
///   `Range` is dropped, so every file is sent whole (200), which HTTP allows and the demo's small files
///   do not miss.
///
/// Both belong upstream; this guard keeps them out until they are fixed there.
///
/// It also gives every file the headers a page on a public server needs (``securityHeaders``): no content
/// sniffing, no framing by another site, and a content security policy that lets the page load only its own
/// scripts, styles and socket (the demo has no inline script or style attribute).
struct PublicFilesGuard<Context: RequestContext>: RouterMiddleware {
    /// The headers every answer of the file middleware carries.
    static var securityHeaders: HTTPFields {
        [
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy:
                "default-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        ]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("//") {
            throw HTTPError(.notFound, message: "No such file.")
        }
        var forwarded = request
        if request.headers[.range] != nil {
            var head = request.head
            head.headerFields[.range] = nil
            forwarded = Request(head: head, body: request.body)
        }
        var response = try await next(forwarded, context)
        response.headers.append(contentsOf: Self.securityHeaders)
        return response
    }
}
