import NIOCore
import Testing

@testable import TypewireServer

@Suite("ClientAddress: who a connection's refusals count against")
struct ClientAddressTests {
    private func client(_ ip: String) throws -> ClientAddress {
        try #require(ClientAddress(try SocketAddress(ipAddress: ip, port: 40_000)))
    }

    @Test func anIPv4AddressIsOneClient() throws {
        #expect(try client("203.0.113.7").description == "203.0.113.7")
        #expect(try client("203.0.113.7") == client("203.0.113.7"))
        #expect(try client("203.0.113.7") != client("203.0.113.8"))
        #expect(try client("::ffff:203.0.113.7") == client("203.0.113.7"), "an IPv4 address mapped into IPv6 is the same client")
    }

    @Test func anIPv6AddressCountsByItsSlash64() throws {
        let one = try client("2001:db8:1:2::1")
        #expect(one == (try client("2001:db8:1:2:ffff:eeee:dddd:9")), "one network's 2^64 addresses are one client")
        #expect(one != (try client("2001:db8:1:3::1")))
        #expect(one.description == "2001:db8:1:2::/64")
    }

    @Test func loopbackAndPrivateAddressesAreLocal() throws {
        for local in [
            "127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "169.254.1.1",
            "::1", "fd00::1", "fc12:3456::1", "fe80::1",
        ] {
            #expect(try client(local).isLocal, "\(local)")
        }
        for remote in ["203.0.113.7", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1", "2001:db8::1", "fec0::1"] {
            #expect(try !client(remote).isLocal, "\(remote)")
        }
    }

    @Test func aUnixSocketIsNoClientAddress() throws {
        #expect(ClientAddress(try SocketAddress(unixDomainSocketPath: "/tmp/typewire.sock")) == nil)
    }
}
