import Foundation

// The few Firestore calls docs/INTEGRATION.md's `FirestoreMessages` makes, with the Firebase iOS SDK's
// Swift names and shapes (checked against firebase-ios-sdk's public headers: `FIRDocumentReference.h`,
// `FIRQuery.h`, `FIRDocumentSnapshot.h`), and the behaviour the sample must survive: a write is local at
// once (every listener hears it, its server timestamp an estimate) and committed only while online, which
// is when `setData` returns. One database for the process (both users of a test share it), no rules, no
// persistence. `nonisolated` as the SDK's Objective-C types are, whatever the module's default isolation.

/// The database.
nonisolated final class Firestore: @unchecked Sendable {
    private static let shared = Firestore()

    /// The app's database.
    static func firestore() -> Firestore { shared }

    private let lock = NSLock()
    private var documents: [String: [String: Document]] = [:]
    private var listeners: [UUID: (collection: String, listener: (QuerySnapshot?, (any Error)?) -> Void)] = [:]
    private var isOnline = true
    private var waitingCommits: [CheckedContinuation<Void, Never>] = []
    private var clock = Date(timeIntervalSince1970: 1_800_000_000)

    fileprivate struct Document {
        var fields: [String: Any]
        var hasPendingWrites: Bool
    }

    func collection(_ collectionPath: String) -> CollectionReference {
        CollectionReference(firestore: self, path: collectionPath)
    }

    /// Goes offline: writes stay local until ``enableNetwork()``.
    func disableNetwork() async throws {
        lock.withLock { isOnline = false }
    }

    /// Back online: the local writes are committed.
    func enableNetwork() async throws {
        let waiting = lock.withLock {
            isOnline = true
            defer { waitingCommits = [] }
            return waitingCommits
        }
        for commit in waiting { commit.resume() }
    }

    /// Forgets every document (between tests).
    func clearPersistence() async throws {
        lock.withLock { documents = [:] }
    }

    /// A document's fields as the server has them (server timestamps resolved); nil before its commit.
    func committedFields(of documentID: String, in collectionPath: String) -> [String: Any]? {
        lock.withLock { documents[collectionPath]?[documentID].flatMap { $0.hasPendingWrites ? nil : $0.fields } }
    }

    /// The ids of a collection's documents, local writes included.
    func documentIDs(in collectionPath: String) -> Set<String> {
        lock.withLock { Set(documents[collectionPath]?.keys ?? [:].keys) }
    }

    fileprivate func write(_ fields: [String: Any], to documentID: String, in collection: String) async {
        let isNew = lock.withLock { documents[collection]?[documentID] == nil }
        notify(collection, documentID, isNew ? .added : .modified) {
            $0[collection, default: [:]][documentID] = Document(fields: fields, hasPendingWrites: true)
        }
        let waits = lock.withLock { !isOnline }
        if waits { await withCheckedContinuation { commit in lock.withLock { waitingCommits.append(commit) } } }
        notify(collection, documentID, .modified) { documents in
            self.clock += 1
            let committed = fields.mapValues { $0 is FieldValue ? Timestamp(date: self.clock) : $0 }
            documents[collection, default: [:]][documentID] = Document(fields: committed, hasPendingWrites: false)
        }
    }

    fileprivate func listen(to collection: String, _ listener: @escaping (QuerySnapshot?, (any Error)?) -> Void) -> UUID {
        let id = UUID()
        let existing = lock.withLock {
            listeners[id] = (collection, listener)
            return (documents[collection] ?? [:]).map { Self.snapshot(of: $0.value, id: $0.key) }
        }
        listener(QuerySnapshot(documentChanges: existing.map { DocumentChange(type: .added, document: $0) }), nil)
        return id
    }

    fileprivate func removeListener(_ id: UUID) {
        lock.withLock { _ = listeners.removeValue(forKey: id) }
    }

    /// Changes the documents, then tells the collection's listeners of the document.
    private func notify(
        _ collection: String, _ documentID: String, _ type: DocumentChangeType, _ change: (inout [String: [String: Document]]) -> Void
    ) {
        let (document, hearing) = lock.withLock {
            change(&documents)
            return (documents[collection]![documentID]!, listeners.values.filter { $0.collection == collection }.map(\.listener))
        }
        let snapshot = Self.snapshot(of: document, id: documentID)
        for listener in hearing { listener(QuerySnapshot(documentChanges: [DocumentChange(type: type, document: snapshot)]), nil) }
    }

    private static func snapshot(of document: Document, id: String) -> QueryDocumentSnapshot {
        QueryDocumentSnapshot(
            documentID: id, fields: document.fields, metadata: SnapshotMetadata(hasPendingWrites: document.hasPendingWrites))
    }
}

/// A query over a collection.
nonisolated class Query {
    fileprivate let firestore: Firestore
    fileprivate let path: String

    fileprivate init(firestore: Firestore, path: String) {
        self.firestore = firestore
        self.path = path
    }

    /// Documents ordered by a field (the fake keeps the order they were written in).
    func order(by field: String) -> Query { self }

    func addSnapshotListener(_ listener: @escaping (QuerySnapshot?, (any Error)?) -> Void) -> any ListenerRegistration {
        Registration(firestore: firestore, id: firestore.listen(to: path, listener))
    }
}

/// A collection of documents.
nonisolated final class CollectionReference: Query {
    /// A new document with an id made on the device.
    func document() -> DocumentReference {
        document(UUID().uuidString)
    }

    func document(_ documentPath: String) -> DocumentReference {
        DocumentReference(firestore: firestore, collection: path, documentID: documentPath)
    }
}

/// One document.
nonisolated final class DocumentReference {
    private let firestore: Firestore
    private let collection: String
    let documentID: String

    fileprivate init(firestore: Firestore, collection: String, documentID: String) {
        self.firestore = firestore
        self.collection = collection
        self.documentID = documentID
    }

    /// Writes the document: local at once, returns once the server committed it (never while offline).
    func setData(_ documentData: [String: Any]) async throws {
        await firestore.write(documentData, to: documentID, in: collection)
    }
}

/// What removes a listener.
nonisolated protocol ListenerRegistration: AnyObject {
    func remove()
}

nonisolated private final class Registration: ListenerRegistration {
    private let firestore: Firestore
    private let id: UUID

    init(firestore: Firestore, id: UUID) {
        self.firestore = firestore
        self.id = id
    }

    func remove() { firestore.removeListener(id) }
}

/// What a listener is told.
nonisolated final class QuerySnapshot {
    let documentChanges: [DocumentChange]

    fileprivate init(documentChanges: [DocumentChange]) { self.documentChanges = documentChanges }
}

nonisolated enum DocumentChangeType {
    case added, modified, removed
}

nonisolated final class DocumentChange {
    let type: DocumentChangeType
    let document: QueryDocumentSnapshot

    fileprivate init(type: DocumentChangeType, document: QueryDocumentSnapshot) {
        self.type = type
        self.document = document
    }
}

nonisolated struct SnapshotMetadata {
    let hasPendingWrites: Bool
}

nonisolated enum ServerTimestampBehavior {
    case none, estimate, previous
}

nonisolated final class QueryDocumentSnapshot {
    let documentID: String
    let metadata: SnapshotMetadata
    private let fields: [String: Any]

    fileprivate init(documentID: String, fields: [String: Any], metadata: SnapshotMetadata) {
        self.documentID = documentID
        self.fields = fields
        self.metadata = metadata
    }

    /// The fields; a server timestamp not committed yet is the device's estimate (`.estimate`) or absent.
    func data(with serverTimestampBehavior: ServerTimestampBehavior) -> [String: Any] {
        fields.compactMapValues { value in
            guard value is FieldValue else { return value }
            return serverTimestampBehavior == .estimate ? Timestamp(date: Date()) : nil
        }
    }
}

/// A value the server fills in.
nonisolated final class FieldValue {
    static func serverTimestamp() -> FieldValue { FieldValue() }
}

nonisolated final class Timestamp {
    private let date: Date

    init(date: Date) { self.date = date }

    func dateValue() -> Date { date }
}
