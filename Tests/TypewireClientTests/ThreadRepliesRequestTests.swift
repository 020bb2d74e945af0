import Foundation
import Testing

@testable import TypewireClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a thread's handle asks for the thread's recent replies, found from the socket's URL.
@Suite("ThreadRepliesRequest")
struct ThreadRepliesRequestTests {
    @Test func theRouteBesideTheSocketWithTheToken() throws {
        let request = try #require(
            ThreadRepliesRequest(socketURL: "ws://127.0.0.1:8080/v1/socket", conversation: "c1", thread: "42", token: "t"))
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/v1/conversations/c1/messages?thread=42&limit=50")
        #expect(request.headers["Authorization"] == "Bearer t")
    }

    @Test func aSecureSocketBehindAPrefixGivesHTTPSUnderTheSamePrefix() throws {
        let request = try #require(
            ThreadRepliesRequest(socketURL: "wss://chat.example.com/typewire/v1/socket", conversation: "c1", thread: "7", token: "t"))
        #expect(
            request.url.absoluteString == "https://chat.example.com/typewire/v1/conversations/c1/messages?thread=7&limit=50")
    }

    @Test func anIdIsOnePathSegment() throws {
        let request = try #require(
            ThreadRepliesRequest(socketURL: "ws://127.0.0.1:8080/v1/socket", conversation: "team/a b?", thread: "42", token: "t"))
        #expect(request.url.path(percentEncoded: true) == "/v1/conversations/team%2Fa%20b%3F/messages")
    }

    @Test func aURLThatIsNoSocketsGivesNone() {
        #expect(ThreadRepliesRequest(socketURL: "ftp://127.0.0.1/v1/socket", conversation: "c1", thread: "42", token: "t") == nil)
    }

    @Test func aConfiguredRESTURLIsUsedAsGivenWithOrWithoutItsLastSlash() throws {
        for restURL in ["https://api.example.com/typewire/v1", "https://api.example.com/typewire/v1/"] {
            let request = try #require(
                ThreadRepliesRequest(
                    socketURL: "wss://realtime.example.com/v1/socket", restURL: restURL, conversation: "c1", thread: "7", token: "t"))
            #expect(
                request.url.absoluteString == "https://api.example.com/typewire/v1/conversations/c1/messages?thread=7&limit=50")
            #expect(request.headers["Authorization"] == "Bearer t")
        }
    }

    @Test func aConfiguredRESTURLMustBeHTTP() {
        #expect(
            ThreadRepliesRequest(
                socketURL: "ws://127.0.0.1:8080/v1/socket", restURL: "ws://127.0.0.1:8080/v1", conversation: "c1", thread: "42", token: "t")
                == nil)
    }
}
