import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// `info` reads a PNG's header from the file by walking its chunks with the pixel data skipped
/// (``ImageCodecs/readHeader(path:options:)``): the header must be the one read from the whole
/// file's bytes, or both must fail, for every PNG of the external corpus (broken ones included).
@Suite("Headers read from the file")
struct HeaderFromFileTests {
    @Test("every external-corpus PNG gives the same header (or both fail) read from the file as from its bytes",
          SharedData.needsCorpus)
    func pngHeadersMatch() throws {
        let corpus = try #require(SharedData.corpus)
        let files = FileManager.default.enumerator(atPath: corpus.path)?.compactMap { $0 as? String }
            .filter { $0.lowercased().hasSuffix(".png") || $0.lowercased().hasSuffix(".apng") }.sorted() ?? []
        #expect(files.count > 200)
        var bothRead = 0, bothFailed = 0
        for file in files {
            let path = corpus.appendingPathComponent(file).path
            let bytes = try ImageCodecs.readFile(path)
            let fromBytes = Result { () throws(DecodeError) in try ImageCodecs.readHeader(bytes) }
            let fromFile = Result { () throws(DecodeError) in try ImageCodecs.readHeader(path: path) }
            switch (fromBytes, fromFile) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(file)")
                bothRead += 1
            case (.failure, .failure): bothFailed += 1
            case (.success, .failure(let e)): Issue.record("\(file): read from its bytes, not from the file: \(e)")
            case (.failure(let e), .success):
                // The walk does not read IDAT data, so a broken IDAT CRC or zlib stream is a pixel
                // matter here; anything else must fail alike.
                #expect("\(e)".contains("IDAT"), "\(file): the file walk accepted what the bytes refused: \(e)")
            }
        }
        #expect(bothRead > 150)
        #expect(bothFailed > 0, "the corpus's broken PNGs fail both ways")
    }
}
