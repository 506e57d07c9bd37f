import Foundation
import Testing
@testable import ImageCodecs

/// `ImageCodecs.readFile`: every byte of the file, or a typed error that says why not.
@Suite("reading a file")
struct ReadFileTests {
    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "imglab-readfile-\(UUID().uuidString).bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file is read whole, byte for byte, across read calls of any size")
    func wholeFile() throws {
        // 3 MB of a byte pattern that repeats only every 251 bytes, so a misplaced block shows.
        let bytes = (0..<3_000_001).map { UInt8($0 % 251) }
        let path = try Self.temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try ImageCodecs.readFile(path) == bytes)
        #expect(try ImageCodecs.readFile(path, limit: bytes.count) == bytes)
    }

    @Test("a file larger than the limit, a missing file and a directory are typed errors")
    func errors() throws {
        let path = try Self.temporaryFile([UInt8](repeating: 7, count: 1000))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: DecodeError.limitExceeded(.bytes, requested: 1000, allowed: 999)) { try ImageCodecs.readFile(path, limit: 999) }
        #expect(throws: DecodeError.io(path: path + ".missing", reason: "no such file")) { try ImageCodecs.readFile(path + ".missing") }
        let folder = NSTemporaryDirectory()
        #expect(throws: DecodeError.io(path: folder, reason: "is a directory")) { try ImageCodecs.readFile(folder) }
    }

    @Test("a file whose size stat reports as 0 (procfs) is read to its end")
    func unsizedFile() throws {
        let bytes = try ImageCodecs.readFile("/proc/self/status")
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("Name:"))
    }
}
