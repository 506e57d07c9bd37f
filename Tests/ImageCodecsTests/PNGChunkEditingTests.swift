import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// ``PNGChunkEditing`` (the fuzzer's way past the CRC check), and the two pixel paths compared
/// on external-corpus PNGs whose filtered rows were edited and whose CRCs were recomputed.
@Suite("PNG chunk editing")
struct PNGChunkEditingTests {
    typealias Rows = PNGInflatedRowsTests

    /// A small valid 8-bit RGB PNG built by the tests' own writer (Paeth-filtered rows).
    static func smallPNG() throws -> (file: [UInt8], rows: [UInt8]) {
        let layout = Rows.Layout(colorType: 2, depth: 8)
        let raw = Rows.rawRows(layout, width: 7, height: 5, seed: 11)
        return (try Rows.png(layout, width: 7, raw: raw, types: [4]), Rows.filtered(raw, types: [4], bpp: 3))
    }

    @Test("the pieces of a file join back to it: whole, truncated mid-chunk, with trailing bytes, and shorter than a signature")
    func piecesJoinBack() throws {
        let (file, _) = try Self.smallPNG()
        let chunkCount = try PNGChunkList(parsing: file).chunks.count
        #expect(PNGChunkEditing.pieces(file).count == 1 + chunkCount)
        for variant in [file, Array(file.prefix(file.count - 7)), file + [1, 2, 3], Array(file.prefix(5))] {
            #expect(PNGChunkEditing.pieces(variant).flatMap { $0 } == variant)
        }
    }

    @Test("recomputed CRCs match the spec's bitwise CRC-32 after an edit inside IHDR and IDAT; an intact file is unchanged")
    func recomputedChecksums() throws {
        let (file, _) = try Self.smallPNG()
        #expect(PNGChunkEditing.recomputingChecksums(file) == file)
        var edited = file
        edited[8 + 8 + 3] ^= 0x01     // IHDR width, low byte: 7 → 6
        edited[file.count - 12 - 5] ^= 0x40  // inside the IDAT data
        #expect(throws: DecodeError.self) { try PNGChunkList(parsing: edited) }
        let repaired = PNGChunkEditing.recomputingChecksums(edited)
        #expect(repaired.count == edited.count)
        let list = try PNGChunkList(parsing: repaired)
        #expect(list.chunks.allSatisfy { $0.crcMatches })
        for chunk in list.chunks {
            let stored = PNGChunkList.u32(repaired, chunk.dataOffset + chunk.data.count)
            #expect(stored == Rows.specCRC(Array(chunk.type.utf8) + Array(chunk.data)), "\(chunk.type)")
        }
    }

    @Test("the filtered rows inflate to what the writer deflated, and replacing them keeps the image")
    func filteredRowsRoundTrip() throws {
        let (file, rows) = try Self.smallPNG()
        #expect(PNGChunkEditing.filteredRows(file, maxBytes: 1 << 20) == rows)
        #expect(PNGChunkEditing.filteredRows(file, maxBytes: rows.count - 1) == nil)
        let rewritten = try #require(PNGChunkEditing.replacingFilteredRows(file, with: rows))
        #expect(try PNGChunkList(parsing: rewritten).chunks.filter { $0.type == "IDAT" }.count == 1)
        #expect(try ImageCodecs.decode(rewritten).bitmap == (try ImageCodecs.decode(file)).bitmap)
        #expect(PNGChunkEditing.replacingFilteredRows(Array(file.prefix(33)), with: rows) == nil)  // signature + IHDR only
    }

    /// The edits of the test below, each a function of the filtered rows and the row size.
    static let edits: [(name: String, edit: @Sendable (inout [UInt8], Int) -> Void)] = [
        ("row bytes changed", { rows, rowSize in
            for k in stride(from: 1, to: rows.count, by: max(1, rows.count / 7)) where k % rowSize != 0 { rows[k] ^= 0x5A }
        }),
        ("filter type 5 in the middle row", { rows, rowSize in rows[(rows.count / rowSize / 2) * rowSize] = 5 }),
        ("filter type 255 in the first row", { rows, _ in rows[0] = 0xFF }),
        ("last row half missing", { rows, rowSize in rows.removeLast(max(1, rowSize / 2)) }),
        ("one row too many", { rows, rowSize in rows += rows.prefix(rowSize) }),
        ("three stray bytes after the rows", { rows, _ in rows += [1, 2, 3] }),
    ]

    @Test("external-corpus PNGs with edited filtered rows and recomputed CRCs decode to the same bytes or the same error through both paths", SharedData.needsCorpus)
    func editedCorpusEquivalence() throws {
        var compared = 0, fastAfterRowEdit = 0, fastBefore = 0
        var mismatches: [String] = [], leftFastPath: [String] = []
        for entry in Manifest.inputs where entry.format == "png" {
            guard let file = Manifest.bytes(entry.path), let list = try? PNGChunkList(parsing: file),
                  let header = try? PNGImageHeader(readingStartOf: file),
                  let rows = PNGChunkEditing.filteredRows(file, maxBytes: 64 << 20), !rows.isEmpty,
                  header.height > 0, !header.interlaced, list.first("acTL") == nil else { continue }
            let rowSize = rows.count / header.height
            guard rowSize > 1, rows.count == rowSize * header.height else { continue }
            let (_, originalRoute) = Rows.decode(file, allowInflatedRows: true)
            if originalRoute == .inflatedRows { fastBefore += 1 }
            for (name, edit) in Self.edits {
                var edited = rows
                edit(&edited, rowSize)
                guard let variant = PNGChunkEditing.replacingFilteredRows(file, with: edited) else { continue }
                compared += 1
                let (viaFast, route) = Rows.decode(variant, allowInflatedRows: true)
                let (viaLibpng, _) = Rows.decode(variant, allowInflatedRows: false)
                if viaFast != viaLibpng { mismatches.append("\(entry.path) (\(name)): \(viaFast) vs libpng \(viaLibpng)") }
                if name == "row bytes changed" {
                    // Row contents never make the fast path step aside: only the structure does.
                    if route == .inflatedRows { fastAfterRowEdit += 1 }
                    if originalRoute == .inflatedRows, route != .inflatedRows { leftFastPath.append(entry.path) }
                }
            }
        }
        // Re-deflating can also move a file onto the fast path (one IDAT, a 32 KiB window).
        print("  edited corpus PNGs: \(compared) variants compared; \(fastAfterRowEdit) row-content edits took the fast path (\(fastBefore) of the unedited files did)")
        #expect(compared > 0)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).joined(separator: "\n"))")
        #expect(leftFastPath.isEmpty, "row edits moved these off the fast path: \(leftFastPath.prefix(10))")
    }
}
