import Foundation
import Testing
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// ``FileSystemName``: names that are not UTF-8 survive the trip from the command line to the
/// file system byte for byte.
@Suite("file names as bytes")
struct FileSystemNameTests {
    @Test("UTF-8 arguments are kept as they are; other bytes round-trip exactly", arguments: [
        Array("plain.png".utf8), Array("café-写真.png".utf8),
        [0x66, 0xFF, 0x2E, 0x70, 0x6E, 0x67],          // a lone 0xFF
        [0xC3, 0x28, 0x61],                              // a broken two-byte sequence
        [0xE2, 0x82], [0xF0, 0x9F, 0x98, 0x80, 0x80],    // truncated, and a valid emoji then a stray continuation byte
        [0xED, 0xA0, 0x80],                              // an encoded surrogate (not UTF-8)
    ] as [[UInt8]])
    func roundTrip(bytes: [UInt8]) {
        let name = FileSystemName.string(fromArgument: bytes)
        #expect(FileSystemName.bytes(name) == bytes)
        if let valid = String(validating: bytes, as: UTF8.self) { #expect(name == valid) }
    }

    @Test("a file whose name is not UTF-8 is read by the name it was given")
    func readsByBytes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imglab-names-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let raw = Array(dir.utf8) + Array("/caf".utf8) + [0xE9] + Array(".bin".utf8)  // Latin-1 "café"
        let fd = (raw + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(fd >= 0)
        _ = [UInt8](arrayLiteral: 7, 8, 9).withUnsafeBytes { write(fd, $0.baseAddress, 3) }
        close(fd)
        #expect(try ImageCodecs.readFile(FileSystemName.string(fromArgument: raw)) == [7, 8, 9])
    }
}
