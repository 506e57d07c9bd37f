import Foundation
import ImageCore
import ImageCodecs

/// The read stage of a corpus pair: the files of a corpus folder (sources, twins, oracles) read
/// and decoded, each failure a ``PairStageError`` that names the file.
struct CorpusFiles {
    var folder: URL

    /// The path of a file of the corpus, from its path relative to the folder.
    func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }

    /// The bytes of a file of the corpus.
    func read(_ relative: String, what: String) throws(PairStageError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw PairStageError(reason: "cannot decode \(what) \(relative): cannot read \(path(relative))")
        }
        return [UInt8](data)
    }

    /// A file of the corpus, decoded.
    func decode(_ relative: String, what: String) throws(PairStageError) -> Image {
        try decoded(relative, what: what).image
    }

    /// A file of the corpus, decoded, with its bytes.
    func decoded(_ relative: String, what: String) throws(PairStageError) -> (image: Image, bytes: [UInt8]) {
        let bytes = try read(relative, what: what)
        do { return (try ImageCodecs.decode(bytes), bytes) } catch { throw PairStageError(reason: "cannot decode \(what) \(relative): \(error)") }
    }
}
