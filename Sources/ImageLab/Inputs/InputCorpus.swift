import Foundation
import ImageCore
import ImageCodecs
import ImageCorpus

/// A folder of one's own images made into a lab corpus (`imglab run --inputs DIR`): each file
/// whose content is an image of a supported container becomes a case, with the operations of
/// ``InputOperation`` sized from its display size, and the box oracle of each operation rendered
/// from the source *as decoded* (``KernelOracle`` with the box kernel: each output pixel the
/// area average, in linear light, of the decoded pixels under it). The case id is the file's path
/// relative to the folder, so a pair id is `RELATIVE/PATH/OPERATION`. The encoding id is
/// `input-CONTAINER-Nbit`, with `-assoc` when the file stores premultiplied (associated) alpha,
/// so the gates file's families take the pair as they take the corpus's own encodings.
///
/// The generated corpus also holds the cases of the gates file's canary pairs, copied from the
/// reference corpus (they are run as canaries, never judged), so a run on inputs fails closed
/// like a corpus run.
public struct InputCorpus: Sendable {
    /// A file that holds an image container the codecs could not decode, with the typed error.
    public struct SkippedFile: Sendable, Hashable {
        /// Relative to the input folder.
        public var path: String
        /// The decoder's error, in words.
        public var reason: String
    }

    /// The generated corpus folder (`manifest.json`, `gates.json`, `sources/`, `oracle/`).
    public var folder: String
    /// The case ids of the input images (relative paths), in path order.
    public var inputCases: [String]
    /// Files recognised as an image container that could not be made into a case.
    public var skipped: [SkippedFile]
    /// Operations of a decodable file that no oracle can judge, `RELATIVE/PATH/OPERATION` with
    /// why: a JPEG that libjpeg had to repair (`jpeg.warnings`) decodes differently at each DCT
    /// scale, so its thumbnail, which a resizer may decode scaled (``ScaledDecode``), has no
    /// expected image.
    public var unjudged: [SkippedFile]
    /// Files whose content is not an image container (ignored).
    public var notImages: Int

    /// Builds the corpus of `inputs` into `folder` (created; must not exist), with the gates and
    /// canary cases of the reference corpus `reference` (a folder with `gates.json`, `manifest.json`).
    /// - Throws: ``RunError/corpus(_:)`` when the inputs or the reference corpus cannot be read or
    ///   the folder cannot be written; ``RunError/gates(_:)`` when a canary matches no reference pair.
    /// - Parameter gatesFile: a gates file to use instead of the reference corpus's.
    public static func build(inputs: String, operations: [InputOperation], reference: String, gatesFile: String? = nil, into folder: String,
                             threads: Int) throws(RunError) -> InputCorpus {
        let fm = FileManager.default
        var isFolder: ObjCBool = false
        guard fm.fileExists(atPath: inputs, isDirectory: &isFolder), isFolder.boolValue else {
            throw .corpus("--inputs \(inputs) is not a folder")
        }
        let root = URL(fileURLWithPath: inputs)
        guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: []) else {
            throw .corpus("cannot list \(inputs)")
        }
        let rootPath = root.standardizedFileURL.path
        var paths: [String] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(rootPath + "/") else { continue }
            paths.append(String(full.dropFirst(rootPath.count + 1)))
        }
        let inputPaths = paths.sorted()

        // Each file on its own: read, sniff, decode, render the oracles (in parallel, results by index).
        let made = ParallelMap.run(inputPaths.count, threads: threads) { i -> Made in
            Self.make(relative: inputPaths[i], root: root, index: i, operations: operations)
        }

        let out = URL(fileURLWithPath: folder)
        func write(_ bytes: [UInt8], _ relative: String) throws(RunError) {
            let url = out.appendingPathComponent(relative)
            do {
                try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
            } catch { throw .corpus("cannot write \(url.path): \(error)") }
        }
        var records: [CaseRecord] = [], skipped: [SkippedFile] = [], unjudged: [SkippedFile] = [], notImages = 0
        for m in made {
            switch m {
            case .notImage: notImages += 1
            case .skipped(let s): skipped.append(s)
            case .made(let record, let files, let left):
                for (path, bytes) in files { try write(bytes, path) }
                records.append(record)
                unjudged += left
            }
        }

        // Gates and canaries from the reference corpus.
        let gates = try GateBook.load(corpus: reference, override: gatesFile)
        let referenceManifest = try LabRunner.manifest(corpus: reference)
        var canaryCases: [CaseRecord] = []
        for canary in gates.file.canaries {
            guard let record = referenceManifest.cases.first(where: { r in r.operations.contains { canary.matches("\(r.id)/\($0.id)") } }) else {
                throw .gates("canary pair \(canary.pair) matches no pair of \(reference)")
            }
            guard !canaryCases.contains(where: { $0.id == record.id }) else { continue }
            var files = [record.file] + record.operations.flatMap(\.oracle)
            if let twin = record.hiddenTwin { files.append(twin) }
            for f in files {
                guard let data = fm.contents(atPath: URL(fileURLWithPath: reference).appendingPathComponent(f).path) else {
                    throw .corpus("cannot read \(f) of the canary case \(record.id) in \(reference)")
                }
                try write([UInt8](data), f)
            }
            canaryCases.append(record)
        }
        let gatesPath = gatesFile ?? URL(fileURLWithPath: reference).appendingPathComponent(GateBook.fileName).path
        if fm.fileExists(atPath: gatesPath) {
            guard let gatesData = fm.contents(atPath: gatesPath) else { throw .corpus("cannot read \(gatesPath)") }
            try write([UInt8](gatesData), GateBook.fileName)
        } else {
            try write(Array(ReviewedGates.text.utf8), GateBook.fileName)
        }

        let manifest = CorpusManifest(profile: "inputs", cases: canaryCases + records)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { try write([UInt8](try encoder.encode(manifest)), "manifest.json") } catch let e as RunError { throw e } catch {
            throw .corpus("cannot encode the manifest: \(error)")
        }
        return InputCorpus(folder: folder, inputCases: records.map(\.id), skipped: skipped, unjudged: unjudged, notImages: notImages)
    }

    private enum Made: Sendable {
        case notImage
        case skipped(SkippedFile)
        case made(CaseRecord, [(String, [UInt8])], unjudged: [SkippedFile])
    }

    /// One input file: its case record and files (source copy, oracle PNGs), or why not.
    private static func make(relative: String, root: URL, index: Int, operations: [InputOperation]) -> Made {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(relative).path) else {
            return .skipped(SkippedFile(path: relative, reason: "cannot read the file"))
        }
        let bytes = [UInt8](data)
        guard let container = ContainerFormat(sniffing: bytes) else { return .notImage }
        let header: ImageHeader, image: Image
        do {
            header = try ImageCodecs.readHeader(bytes)
            image = try ImageCodecs.decode(bytes)
        } catch { return .skipped(SkippedFile(path: relative, reason: "\(container.rawValue) that cannot be decoded: \(error)")) }
        let display = image.displaySize
        let sourcePath = "sources/\(relative)"
        var files: [(String, [UInt8])] = [(sourcePath, bytes)]
        var entries: [OperationEntry] = []
        var seen: Set<String> = [], unjudged: [SkippedFile] = []
        let repairs = container == .jpeg ? image.metadata.properties["jpeg.warnings"] : nil
        for input in operations {
            let op = input.operation(displayWidth: display.width, displayHeight: display.height)
            guard seen.insert(op.id).inserted else { continue }
            if let repairs, ScaledDecode.mayApply(to: op, container: container.rawValue, width: header.width,
                                                      height: header.height, orientation: header.orientation) {
                unjudged.append(SkippedFile(path: "\(relative)/\(op.id)", reason: "libjpeg repaired this JPEG (\(repairs.prefix(120))), and the repair differs at the reduced DCT scale a thumbnail may decode at: no oracle"))
                continue
            }
            let placement: OraclePlacement
            do { placement = try OracleGeometry.placement(of: op, width: display.width, height: display.height) } catch {
                return .skipped(SkippedFile(path: relative, reason: "\(op.id): no oracle geometry: \(error)"))
            }
            var oracles: [String] = []
            for k in 0..<image.frameCount {
                let path = "oracle/\(index)/\(op.id)" + (image.frameCount > 1 ? "-frame\(k)" : "") + ".png"
                do {
                    let oracle = try KernelOracle.render(source: image, frame: k, placement: placement, kernel: .box)
                    files.append((path, try ImageCodecs.encode(Image(bitmap: oracle.bitmap16()), as: .png)))
                } catch { return .skipped(SkippedFile(path: relative, reason: "\(op.id): the box oracle cannot be rendered: \(error)")) }
                oracles.append(path)
            }
            entries.append(OperationEntry(id: op.id, operation: op.record, outputWidth: placement.width, outputHeight: placement.height,
                                          samplesPerAxis: 1, oracle: oracles))
        }
        let format = header.format
        let record = CaseRecord(
            id: relative, file: sourcePath, container: container.rawValue,
            encoding: "input-\(container.rawValue)-\(format.bitsPerComponent)bit" + (format.isPremultiplied ? "-assoc" : ""), stored: PixelFormatRecord(format).summary,
            scene: "input", purpose: "an image of --inputs", reduction: "none",
            width: header.width, height: header.height, displayWidth: display.width, displayHeight: display.height,
            orientation: header.orientation.rawValue, scale: 1, frames: image.frameCount, animation: nil,
            pixelFormat: PixelFormatRecord(format), tolerance: nil,
            lossy: container == .jpeg || container == .webp && image.metadata.properties["compression"] != "VP8L (lossless)",
            documents: [], bugClasses: [], hiddenTwin: nil, operations: entries)
        return .made(record, files, unjudged: unjudged)
    }
}
