import Foundation
import ImageCodecs
import ImageCore
import ImageCorpus

/// Where a command finds its corpus when `--corpus` is not given (docs/corpus.md, "Where the
/// corpus is"): `./Corpus` when it holds a manifest; otherwise the profile generated once into
/// imglab's cache folder, so `imglab run` works from any folder.
///
/// The cache folder is `$IMGLAB_CACHE_DIR`, else `$XDG_CACHE_HOME/imglab`, else `~/.cache/imglab`.
/// Each build of imglab has its own corpus there (`corpus-PROFILE-VERSION-KEY`, the key from the
/// commit and the executable's size and time), since the generator may change between builds;
/// the folder is written as one generation (``OutputFolder``), so a killed or concurrent first
/// run never leaves half a corpus. Deleting the cache folder is always safe.
public enum CorpusLocation {
    /// The folder commands look in first, relative to the working folder.
    public static let localFolder = "Corpus"

    /// Where the corpus of a command is, and how it was found.
    public struct Found: Sendable, Hashable {
        /// The corpus folder.
        public var folder: String
        /// What a command prints about it: `nil` for a corpus the user named or `./Corpus`.
        public var note: String?
    }

    /// The corpus folder for `profile`: `given` when the user named one, `./Corpus` when it holds
    /// a manifest of that profile, else the cached one, generated first when it is missing.
    /// - Throws: ``RunError/corpus(_:)`` when the cached corpus cannot be generated or written.
    /// - Parameters:
    ///   - local: the folder looked in before the cache (``localFolder``).
    ///   - cache: the cache folder (``cacheFolder``).
    public static func resolve(_ given: String?, profile: CorpusProfile = .quick,
                               threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                               local: String = localFolder, cache: String = cacheFolder) throws(RunError) -> Found {
        if let given { return Found(folder: given, note: nil) }
        if let manifest = try? LabRunner.manifest(corpus: local), manifest.profile == profile.rawValue {
            return Found(folder: local, note: nil)
        }
        let folder = cache + "/corpus-\(profile.rawValue)-\(ImglabBuild.version)-\(buildKey)"
        let hereNote = FileManager.default.fileExists(atPath: local) ? "\(local) holds no \(profile.rawValue) corpus" : "no \(local) here"
        if FileManager.default.fileExists(atPath: folder + "/manifest.json") {
            return Found(folder: folder, note: "\(hereNote); using the \(profile.rawValue) corpus of this imglab build in \(folder)")
        }
        try generate(profile, into: folder, threads: threads)
        return Found(folder: folder, note: "\(hereNote); generated the \(profile.rawValue) corpus into \(folder) (once per imglab build; 'imglab corpus --out Corpus' makes one here)")
    }

    /// `$IMGLAB_CACHE_DIR`, `$XDG_CACHE_HOME/imglab`, `~/.cache/imglab`, or a folder under the
    /// system's temporary folder when there is no home.
    public static var cacheFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let dir = environment["IMGLAB_CACHE_DIR"], !dir.isEmpty { return dir }
        if let dir = environment["XDG_CACHE_HOME"], !dir.isEmpty { return dir + "/imglab" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/imglab" }
        return FileManager.default.temporaryDirectory.path + "/imglab-cache-\(getuid())"
    }

    /// The commit, then the running executable's size and modification time, hashed (FNV-1a):
    /// a rebuild from changed sources under the same commit gets a corpus of its own.
    static var buildKey: String {
        var text = ImglabBuild.commit
        var info = stat()
        if stat("/proc/self/exe", &info) == 0 { text += "-\(info.st_size)-\(info.st_mtim.tv_sec)-\(info.st_mtim.tv_nsec)" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Generates the profile and publishes it at `folder` whole; when another process published
    /// it meanwhile, keeps theirs (the same bytes) and drops this one.
    private static func generate(_ profile: CorpusProfile, into folder: String, threads: Int) throws(RunError) {
        let corpus: GeneratedCorpus
        do { corpus = try CorpusGenerator.generate(profile, threads: threads) } catch {
            throw .corpus("cannot generate the \(profile.rawValue) corpus: \(error)")
        }
        do {
            let generation = try OutputFolder(folder)
            do {
                for (path, bytes) in corpus.files.sorted(by: { $0.key < $1.key }) { try generation.write(bytes, to: path) }
                if FileManager.default.fileExists(atPath: folder + "/manifest.json") { generation.abandon(); return }
                try generation.publish()
            } catch {
                generation.abandon()
                throw error
            }
        } catch {
            throw .corpus("cannot write the \(profile.rawValue) corpus into \(folder): \(error); set IMGLAB_CACHE_DIR to a writable folder, or make one here with 'imglab corpus --out Corpus'")
        }
    }
}
