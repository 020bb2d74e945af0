import Foundation

/// A table in `TestVectors/`: its rows under `vectors`.
private struct TestVectorFile<Vector: Decodable>: Decodable {
    var vectors: [Vector]
}

/// The rows of a table in `TestVectors/`, the tables the web demo's JavaScript tests check too. A missing
/// or broken table stops the tests that read it.
func testVectors<Vector: Decodable>(_ file: String, as type: Vector.Type) -> [Vector] {
    testVectorTable(file, as: TestVectorFile<Vector>.self).vectors
}

/// A whole table in `TestVectors/`, as `Table` reads it (for tables with more than `vectors`).
func testVectorTable<Table: Decodable>(_ file: String, as type: Table.Type) -> Table {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/\(file)")
    return try! JSONDecoder().decode(Table.self, from: Data(contentsOf: url))
}
