import Testing

@testable import TypewireClient

/// Which updates of the network path make the client connect again at once.
@Suite("Network path watch")
struct NetworkPathWatchTests {
    static let wifi = NetworkPath(isSatisfied: true, interfaces: ["en0", "pdp_ip0"])
    static let cellular = NetworkPath(isSatisfied: true, interfaces: ["pdp_ip0"])
    static let none = NetworkPath(isSatisfied: false, interfaces: [])

    @Test func theFirstUpdateOnlySaysWhereThingsStand() {
        var watch = NetworkPathWatch()
        let reconnects = watch.update(Self.wifi)
        #expect(!reconnects)
    }

    @Test func theNetworkComingBackReconnects() {
        var watch = NetworkPathWatch()
        _ = watch.update(Self.wifi)
        let lost = watch.update(Self.none)
        let back = watch.update(Self.wifi)
        #expect(!lost, "nothing to reconnect over")
        #expect(back)
    }

    @Test func anotherPreferredInterfaceReconnects() {
        var watch = NetworkPathWatch()
        _ = watch.update(Self.wifi)
        let toCellular = watch.update(Self.cellular)
        let toWifi = watch.update(Self.wifi)
        #expect(toCellular)
        #expect(toWifi)
    }

    @Test func theSamePathAgainOrAnotherBackupInterfaceChangesNothing() {
        var watch = NetworkPathWatch()
        _ = watch.update(Self.wifi)
        let again = watch.update(Self.wifi)
        let backupGone = watch.update(NetworkPath(isSatisfied: true, interfaces: ["en0"]))
        #expect(!again)
        #expect(!backupGone)
    }

    @Test func aStartWithoutNetworkReconnectsWhenItComes() {
        var watch = NetworkPathWatch()
        _ = watch.update(Self.none)
        let reconnects = watch.update(Self.cellular)
        #expect(reconnects)
    }
}
