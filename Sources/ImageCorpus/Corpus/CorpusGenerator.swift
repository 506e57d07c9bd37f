import Foundation
import ImageCore
import ImageCodecs

/// A corpus in memory: every file's bytes by path relative to the corpus folder.
public struct GeneratedCorpus: Sendable {
    /// The profile.
    public var profile: CorpusProfile
    /// The cases.
    public var cases: [CorpusCase]
    /// The manifest.
    public var manifest: CorpusManifest
    /// File bytes by relative path: `manifest.json`, `manifest.schema.json`, `gates.json`, `sources/…`
    /// (with each case's hidden-colour twin, `sources/ID.twin.EXT`), `oracle/…`.
    public var files: [String: [UInt8]]

    /// Number of (case, operation) pairs.
    public var pairCount: Int { cases.reduce(0) { $0 + $1.operations.count } }
}

/// Generates a corpus: sources, oracle images and the manifest, deterministically (the same
/// bytes for any thread count: every file is computed on its own and stored by path).
public enum CorpusGenerator {
    /// The folders the generator owns inside a corpus folder; `--out` and `--check` treat any
    /// other file in them as stale.
    public static let generatedFolders = ["sources", "oracle"]

    /// Generates `profile` using up to `threads` threads.
    /// - Throws: ``CorpusGenerationError`` when a case cannot be made (a bug in the corpus
    ///   definition, reported with the case).
    public static func generate(_ profile: CorpusProfile, threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws -> GeneratedCorpus {
        let cases = profile.cases
        // Oracle jobs, deduplicated by path: cases with the same content share their oracles.
        struct Job: Sendable { var path: String; var content: CorpusCase; var frame: Int; var placement: OraclePlacement }
        var jobs: [Job] = []
        var seen: Set<String> = []
        var records: [CaseRecord] = []
        for c in cases {
            var entries: [OperationEntry] = []
            for op in c.operations {
                let placement: OraclePlacement
                do { placement = try OracleGeometry.placement(of: op, width: c.width, height: c.height) } catch {
                    throw CorpusGenerationError(caseID: c.id, reason: "operation \(op.id): \(error)")
                }
                var paths: [String] = []
                for k in 0..<c.frameCount {
                    let path = c.oraclePath(op, frame: k)
                    paths.append(path)
                    if seen.insert(path).inserted { jobs.append(Job(path: path, content: c, frame: k, placement: placement)) }
                }
                entries.append(OperationEntry(id: op.id, operation: op.record, outputWidth: placement.width, outputHeight: placement.height,
                                              samplesPerAxis: Oracle.samplesPerAxis(for: placement), oracle: paths))
            }
            records.append(record(c, operations: entries))
        }
        let jobList = jobs
        // Every case's source, then the twins of those that store hidden colour.
        let sourceCases = cases + cases.compactMap(\.hiddenTwin)
        let sources = ParallelMap.run(sourceCases.count, threads: threads) { i -> Result<[UInt8], CorpusGenerationError> in
            do throws(CorpusGenerationError) { return .success(try SourceEncoder.encode(sourceCases[i])) } catch { return .failure(error) }
        }
        let oracles = ParallelMap.run(jobs.count, threads: threads) { i -> Result<[UInt8], CorpusGenerationError> in
            let job = jobList[i]
            let c = job.content
            let image = Oracle.render(canvasWidth: c.width, canvasHeight: c.height, placement: job.placement, scene: c.content(frame: job.frame))
            do { return .success(try ImageCodecs.encode(Image(bitmap: image.bitmap16()), as: .png)) } catch {
                return .failure(CorpusGenerationError(caseID: c.id, reason: "oracle \(job.path): \(error)"))
            }
        }
        var files: [String: [UInt8]] = [:]
        for (c, result) in zip(sourceCases, sources) { files[c.sourcePath] = try result.get() }
        for (job, result) in zip(jobList, oracles) { files[job.path] = try result.get() }
        let manifest = CorpusManifest(profile: profile.rawValue, cases: records)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        files["manifest.json"] = [UInt8](try encoder.encode(manifest)) + [0x0A]
        files[ManifestSchema.fileName] = Array(ManifestSchema.text.utf8)
        files[ReviewedGates.fileName] = Array(ReviewedGates.text.utf8)
        return GeneratedCorpus(profile: profile, cases: cases, manifest: manifest, files: files)
    }

    /// The manifest record of a case.
    static func record(_ c: CorpusCase, operations: [OperationEntry]) -> CaseRecord {
        let stored = c.storedSize
        let animation = c.animation.map { plan in
            AnimationRecord(style: plan.style.id, loopCount: 0, delays: (0..<AnimationPlan.frameCount).map(AnimationPlan.delay),
                            disposals: (0..<AnimationPlan.frameCount).map { plan.disposal($0).rawValue }, blend: plan.style.blend.rawValue,
                            regions: (0..<AnimationPlan.frameCount).map { let r = plan.region($0); return [r.x, r.y, r.width, r.height] })
        }
        return CaseRecord(id: c.id, file: c.sourcePath, container: c.encoding.container.rawValue, encoding: c.encoding.id,
                          stored: c.encoding.stored, scene: c.scene.rawValue, purpose: c.scene.purpose, reduction: c.encoding.reduction.rawValue,
                          width: stored.width, height: stored.height, displayWidth: c.width, displayHeight: c.height,
                          orientation: c.orientation.exifValue, scale: c.scale, frames: c.frameCount, animation: animation,
                          pixelFormat: PixelFormatRecord(c.encoding.delivered), tolerance: c.encoding.tolerance,
                          lossy: c.encoding.tolerance == nil, documents: c.documents.map(\.rawValue),
                          bugClasses: c.bugClasses.map(\.rawValue), hiddenTwin: c.hiddenTwin?.sourcePath, operations: operations,
                          colours: c.encoding.colours?.words, embeddedThumbnail: c.encoding.thumbnail?.words(for: c))
    }
}
