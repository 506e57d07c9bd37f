import Foundation
import ImageCodecs

extension BundledResizers {
    /// The names of the bundled configs (`imagemagick`, `imglab-cli`, `pillow`, `vipsthumbnail`):
    /// what `--resizer NAME` and `config:NAME` accept besides a file.
    public static var configNames: [String] {
        files.map(\.name).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }
    }

    /// The bundled files written into a folder of imglab's cache (``CorpusLocation/cacheFolder``)
    /// for this build, so a config's `{dir}` names a folder that holds its scripts; each file is
    /// written atomically when it is missing or differs.
    /// - Throws: ``ResizerConfigError`` when the folder cannot be written.
    public static func folder(cache: String = CorpusLocation.cacheFolder) throws(ResizerConfigError) -> String {
        let folder = cache + "/resizers-\(CorpusLocation.buildKey)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for file in files {
                let path = folder + "/" + file.name, bytes = Array(file.text.utf8)
                if let existing = FileManager.default.contents(atPath: path), existing.elementsEqual(bytes) { continue }
                try ImageCodecs.writeAtomically(bytes, to: path)
            }
        } catch {
            throw ResizerConfigError(path: folder, reason: "cannot write the bundled resizer configs: \(error); set IMGLAB_CACHE_DIR to a writable folder")
        }
        return folder
    }

    /// The path of the bundled config `name` (written out first), or `nil` when none has that name.
    public static func configPath(_ name: String) throws(ResizerConfigError) -> String? {
        guard configNames.contains(name) else { return nil }
        return try folder() + "/" + name + ".json"
    }
}
