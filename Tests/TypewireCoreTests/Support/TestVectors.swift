import Foundation

/// A table in `TestVectors/`: its rows under `vectors`.
private struct TestVectorFile<Vector: Decodable>: Decodable {
    var vectors: [Vector]
}

/// The rows of a table in `TestVectors/`, the tables the web demo's JavaScript tests check too. A missing
/// or broken table stops the tests that read it.
func testVectors<Vector: Decodable>(_ file: String, as type: Vector.Type) -> [Vector] {
    let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestVectors/\(file)")
    return try! JSONDecoder().decode(TestVectorFile<Vector>.self, from: Data(contentsOf: url)).vectors
}
