import Testing
import TypewireNATS

@Suite("NATS server addresses")
struct NATSServerAddressTests {
    @Test func urlsWithAndWithoutCredentialsAndPorts() throws {
        #expect(try NATSServerAddress(url: "nats://a:4223") == NATSServerAddress(host: "a", port: 4223))
        #expect(try NATSServerAddress(url: "b") == NATSServerAddress(host: "b", port: 4222))
        #expect(
            try NATSServerAddress(url: "nats://ty%40pe:p%3Ass@10.0.0.1:4222/")
                == NATSServerAddress(host: "10.0.0.1", credentials: .userAndPassword(user: "ty@pe", password: "p:ss")))
        #expect(
            try NATSServerAddress(url: "nats://s3cret@[::1]:5000")
                == NATSServerAddress(host: "::1", port: 5000, credentials: .token("s3cret")))
        #expect(try NATSServerAddress.list("nats://a:1,nats://b:2").map(\.description) == ["a:1", "b:2"])
        #expect(
            try NATSServerAddress(url: "tls://u:p@a:4222")
                == NATSServerAddress(
                    host: "a", credentials: .userAndPassword(user: "u", password: "p"), requiresTLS: true))
        #expect(try NATSServerAddress(url: "nats://a").requiresTLS == false)
    }

    @Test(arguments: ["http://a:4222", "nats://:4222", "nats://a:0", "nats://a:x", ""])
    func badURLsAreRefusedWithAReason(url: String) {
        #expect(throws: NATSServerAddress.InvalidURL.self) { try NATSServerAddress.list(url) }
    }

    @Test func theDescriptionHidesCredentials() throws {
        #expect(try NATSServerAddress(url: "nats://u:secret@h:1").description == "h:1")
    }
}
