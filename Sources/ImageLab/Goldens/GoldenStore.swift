import ImageCorpus
import Foundation
import ImageCore
import ImageCodecs

/// The blessed goldens: accepted outputs of a resizer, for regression (the oracle judges
/// correctness). A folder holds `index.json` and `files/HASH.png`.
///
/// - Several goldens per pair are allowed, keyed by ``pixelHash(_:)`` of the decoded pixels;
///   each records the resizer that made it and its distance to the oracle at bless time.
/// - Crash safety: golden files are content-addressed and written atomically (temp file +
///   rename) before the index, which is written atomically last; a bless rewrites and deletes
///   no file. A bless killed at any point leaves the previous index, and every file it names,
///   intact and loadable. Only ``prune(current:)`` removes files: those no golden names.
public struct GoldenStore: Sendable {
    /// The index's schema identifier.
    public static let schema = "imglab-goldens/1"

    /// One accepted output of a pair.
    public struct Golden: Sendable, Hashable, Codable {
        /// ``GoldenStore/pixelHash(_:)`` of the image, 16 hex digits.
        public var hash: String
        /// The PNG, relative to the store folder.
        public var file: String
        /// The adapter that produced it.
        public var resizer: String
        /// Distance to the oracle when blessed: metric name → value (visible.mean, deltaE00.p99).
        public var oracleDistance: [String: Double]
    }

    /// The lock file that serialises blessings of one store (``FileLock``).
    public static let lockFile = ".lock"

    /// `index.json`.
    public struct Index: Sendable, Hashable, Codable {
        public var schema = GoldenStore.schema
        /// Pair id `CASE/OPERATION` → its goldens, oldest first (an index written with the pair ids
        /// of manifest version 1 is read with the current ones, ``ManifestV1Names``).
        public var goldens: [String: [Golden]] = [:]
        public init() {}
    }

    /// Why the store cannot be read or written.
    public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
        case unreadable(String)
        case write(String)
        public var description: String {
            switch self {
            case .unreadable(let why): return "golden store unreadable: \(why)"
            case .write(let why): return "golden store not written: \(why)"
            }
        }
    }

    /// The store folder.
    public var folder: String

    /// Called after each file ``bless(_:)`` has written (golden PNGs, then the index) with the
    /// number of files written so far by that call. `imglab bless` uses it for its fault point,
    /// `IMGLAB_FAULT_AFTER_WRITES` (docs/goldens.md), which the crash-safety test sets.
    public var afterWrite: (@Sendable (_ writes: Int) -> Void)?

    public init(folder: String, afterWrite: (@Sendable (_ writes: Int) -> Void)? = nil) {
        self.folder = folder
        self.afterWrite = afterWrite
    }

    /// The index (empty when the folder has none yet).
    public func load() throws(StoreError) -> Index {
        let path = folder + "/index.json"
        guard FileManager.default.fileExists(atPath: path) else { return Index() }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("cannot read \(path)") }
        var index: Index
        do { index = try JSONDecoder().decode(Index.self, from: data) } catch { throw .unreadable("\(path): \(error)") }
        guard index.schema == Self.schema else { throw .unreadable("\(path) has schema \(index.schema), expected \(Self.schema)") }
        // Pair ids of manifest version 1 are read as the current ones.
        index.goldens = Dictionary(index.goldens.map { (ManifestV1Names.pairID($0.key), $0.value) }) { a, b in a + b }
        return index
    }

    /// Decodes a golden's image.
    public func image(_ golden: Golden) throws(StoreError) -> Image {
        let path = folder + "/" + golden.file
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable("missing \(path)") }
        do { return try ImageCodecs.decode([UInt8](data)) } catch { throw .unreadable("\(path): \(error)") }
    }

    /// FNV-1a 64 over the width and height (8 bytes each, little-endian) and the displayed
    /// pixels as straight 16-bit RGBA: the key that says two outputs are the same pixels,
    /// whatever their storage format.
    public static func pixelHash(_ image: Image) throws(StoreError) -> String {
        let upright = image.orientation.apply(to: image.bitmap)
        let rgba: Bitmap
        do { rgba = try upright.converted(to: .rgba16) } catch { throw .write("cannot read the output as RGBA: \(error)") }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        for v in [UInt64(rgba.width), UInt64(rgba.height)] { for i in 0..<8 { mix(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        for y in 0..<rgba.height {
            let start = y * rgba.bytesPerRow
            for i in start..<(start + rgba.width * 8) { mix(rgba.bytes[i]) }
        }
        return String(hash, radix: 16).leftPadded(to: 16)
    }

    /// Accepts outputs: under an exclusive lock on the store (``lockFile``), re-reads the index,
    /// writes each new image's PNG, then the index with the new goldens added, one file at a
    /// time in that order (``afterWrite`` is called after each). Two blessings at once are
    /// serialised and neither loses the other's goldens.
    /// - Parameters:
    ///   - outputs: per pair id, the output, the resizer's name and its oracle distance.
    /// - Returns: the number of goldens added (an output equal to an existing golden adds none).
    @discardableResult
    public func bless(_ outputs: [(pair: String, image: Image, resizer: String, oracleDistance: [String: Double])]) throws(StoreError) -> Int {
        do { try FileManager.default.createDirectory(atPath: folder + "/files", withIntermediateDirectories: true) } catch {
            throw .write("cannot create \(folder)/files: \(error)")
        }
        let lock: FileLock
        do { lock = try FileLock(folder + "/" + Self.lockFile) } catch { throw .write("\(error)") }
        defer { lock.release() }
        var index = try load()
        var added = 0, writes = 0
        func write(_ bytes: [UInt8], _ relative: String) throws(StoreError) {
            do { try ImageCodecs.writeAtomically(bytes, to: folder + "/" + relative) } catch { throw .write("\(relative): \(error)") }
            writes += 1
            afterWrite?(writes)
        }
        for output in outputs {
            let hash = try Self.pixelHash(output.image)
            if index.goldens[output.pair]?.contains(where: { $0.hash == hash }) == true { continue }
            let file = "files/\(hash).png"
            if !FileManager.default.fileExists(atPath: folder + "/" + file) {
                var upright = Image(bitmap: output.image.orientation.apply(to: output.image.bitmap))
                do { upright.bitmap = try upright.bitmap.converted(to: .rgba16) } catch { throw .write("\(output.pair): \(error)") }
                let png: [UInt8]
                do { png = try ImageCodecs.encode(upright, as: .png) } catch { throw .write("\(output.pair): \(error)") }
                try write(png, file)
            }
            index.goldens[output.pair, default: []].append(Golden(hash: hash, file: file, resizer: output.resizer, oracleDistance: output.oracleDistance))
            added += 1
        }
        guard added > 0 else { return 0 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(index) } catch { throw .write("index: \(error)") }
        try write([UInt8](data), "index.json")
        return added
    }
}

extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
