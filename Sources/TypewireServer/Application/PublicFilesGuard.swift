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
struct PublicFilesGuard<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("//") {
            throw HTTPError(.notFound, message: "No such file.")
        }
        guard request.headers[.range] != nil else { return try await next(request, context) }
        var head = request.head
        head.headerFields[.range] = nil
        return try await next(Request(head: head, body: request.body), context)
    }
}
