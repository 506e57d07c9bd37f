import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// The thumbnails of one key for the folder diff's index (``IndexThumbnail``): PNG files in the
/// report's `thumbs/`, as paths relative to the index.
struct FolderThumbnails: Sendable {
    var expected: String?
    var actual: String?
    /// The heat map's thumbnail (``IndexThumbnail/difference(_:_:ignored:)``), for a pair judged different.
    var difference: String?
}

/// What one worker of ``FolderDiff`` returns for a key: its item, its thumbnails (when a report
/// is written) and the output that could not be written, if any.
struct FolderPairOutcome: Sendable {
    var item: FolderDiffItem
    var thumbnails: FolderThumbnails
    var writeError: (path: String, reason: String)?
}

/// One key of a folder diff, judged by one worker: read both files (same bytes: unchanged),
/// decode them, judge them, write the pair's report page, make the thumbnails, and let the
/// images go.
struct FolderPairJudgement: Sendable {
    var diff: FolderDiff
    var judge: Judge
    var pair: FolderPairing.Pair
    /// The key's position in key order (numbers its report page).
    var index: Int
    /// The report's staged generation, when a report is written.
    var folder: OutputFolder?

    func run() -> FolderPairOutcome {
        var item = FolderDiffItem(key: pair.key, expected: pair.expected, actual: pair.actual, status: .error)
        var thumbnails = FolderThumbnails()
        var writeError: (path: String, reason: String)?
        let report = folder != nil
        let expectedPath = pair.expected.map { diff.expectedFolder + "/" + $0 }
        let actualPath = pair.actual.map { diff.actualFolder + "/" + $0 }
        // The decode stage of every pair of files (``PairDecoding``), under this worker's share of
        // the memory budget: each of the `threads` workers holds one pair at a time.
        var options = diff.decode
        options.limits.maxBytes = max(1, diff.decode.limits.maxBytes / max(1, diff.threads))
        let budgeted = options
        func read(_ path: String) -> Result<PairDecoding.File, FileComparisonError> {
            do throws(FileComparisonError) { return .success(try PairDecoding.read(path, options: budgeted)) } catch { return .failure(error) }
        }
        func decode(_ files: [PairDecoding.File]) -> Result<[PairDecoding.Side], FileComparisonError> {
            do throws(FileComparisonError) { return .success(try PairDecoding.decode(files, options: budgeted, threads: 1)) } catch {
                return .failure(error)
            }
        }
        // A thumbnail is written as `thumbs/INDEX-NAME.png` by this worker.
        func stored(_ image: EmbeddedImage?, _ name: String) -> String? {
            guard let image, let folder else { return nil }
            let path = IndexThumbnail.path(index: index, name)
            do { try folder.write(image.bytes, to: path) } catch {
                writeError = writeError ?? (folder.path + "/" + path, "\(error)")
                return nil
            }
            return path
        }
        func thumbnail(_ path: String) -> EmbeddedImage? {
            guard case .success(let file) = read(path), case .success(let sides) = decode([file]) else { return nil }
            return IndexThumbnail.png(sides[0].compared.image)
        }
        switch (expectedPath, actualPath) {
        case (nil, let a?):
            item.status = .new
            item.message = "only in the actual folder"
            if report { thumbnails.actual = stored(thumbnail(a), "actual") }
            return FolderPairOutcome(item: item, thumbnails: thumbnails, writeError: writeError)
        case (let e?, nil):
            item.status = .deleted
            item.message = "only in the expected folder"
            if report { thumbnails.expected = stored(thumbnail(e), "expected") }
            return FolderPairOutcome(item: item, thumbnails: thumbnails, writeError: writeError)
        case (let e?, let a?):
            let ef: PairDecoding.File, af: PairDecoding.File
            switch (read(e), read(a)) {
            case (.success(let x), .success(let y)): ef = x; af = y
            case (.failure(let error), _), (_, .failure(let error)):
                item.message = error.description
                return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            if ef.bytes == af.bytes {
                item.status = .unchanged
                item.message = "same bytes"
                if report, case .success(let sides) = decode([ef]) {
                    thumbnails.expected = stored(IndexThumbnail.png(sides[0].compared.image), "both")
                    thumbnails.actual = thumbnails.expected
                }
                return FolderPairOutcome(item: item, thumbnails: thumbnails, writeError: writeError)
            }
            let expected: PairDecoding.Side
            var actual: PairDecoding.Side
            switch decode([ef, af]) {
            case .success(let sides): expected = sides[0]; actual = sides[1]
            case .failure(let error):
                item.message = error.description
                return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            // --size-policy resize: the actual image resized to the expected's size, then judged (and shown) as such.
            let resized = diff.sizePolicy == .resize ? diff.resizeStage?.prepare(expected.compared, actual.compared) : nil
            if let resized { actual.compared = resized.actual }
            var judgement: Judgement, mask: PixelMask?
            // The command line's masks and regions, and the masks file's entries for this pair.
            let ignored = diff.masks?.ignored(for: pair, adding: diff.ignored) ?? diff.ignored
            item.ignored = ignored.summary
            do throws(FileComparisonError) {
                // Identical images pass whatever the gate; without masks they are not judged.
                if ignored.isEmpty, FileComparison.identicalByValue(expected.compared.image, actual.compared.image) {
                    item.status = .unchanged
                    item.message = "identical by value"
                    if report {
                        thumbnails.expected = stored(IndexThumbnail.png(expected.compared.image), "both")
                        thumbnails.actual = thumbnails.expected
                    }
                    return FolderPairOutcome(item: item, thumbnails: thumbnails, writeError: writeError)
                }
                (judgement, mask) = try FileComparison.judge(expected.compared, actual.compared, by: judge, ignoring: ignored, colour: diff.colour)
                judgement.resized = resized?.resized
            } catch {
                item.message = error.description
                return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            classify(judgement, into: &item)
            if let words = resized?.resized { item.message = [words, item.message].compactMap { $0 }.joined(separator: "; ") }
            item.ignoredPixels = judgement.comparison.value("ignored.pixels").map { Int($0) }
            if report {
                thumbnails.expected = stored(IndexThumbnail.png(expected.compared.image), "expected")
                thumbnails.actual = stored(IndexThumbnail.png(actual.compared.image), "actual")
                if !judgement.comparison.identical {
                    thumbnails.difference = stored(IndexThumbnail.difference(expected.compared.image, actual.compared.image, ignored: mask),
                                                   "difference")
                }
            }
            if let folder, item.status != .unchanged {
                let page = RunReport.pagePath(index: index, pair: pair.key)
                do {
                    let images = try DiffReport.Images.make(expected: expected.compared, actual: actual.compared,
                                                            expectedFile: expected.bytes, actualFile: actual.bytes, ignored: mask,
                                                            coverage: mask.map { ignored.coverage(width: $0.width, height: $0.height) } ?? [])
                    let html = DiffReport.html(judgement, images: images, context: context(item))
                    try folder.write(Array(html.utf8), to: page)
                    item.page = page
                } catch {
                    writeError = writeError ?? (folder.path + "/" + page, "\(error)")
                }
            }
            return FolderPairOutcome(item: item, thumbnails: thumbnails, writeError: writeError)
        case (nil, nil):
            item.message = "no file on either side"
            return FolderPairOutcome(item: item, thumbnails: thumbnails)
        }
    }

    /// The status, message, diagnosis and metrics of a judged pair.
    func classify(_ judgement: Judgement, into item: inout FolderDiffItem) {
        let c = judgement.comparison
        switch judgement.kind {
        case .pass:
            item.status = c.identical ? .unchanged : .withinGate
            item.message = c.identical ? "identical by value" : judgement.gate.map { "within the gate \($0.expression)" }
        case .fail:
            item.status = .changed
            item.message = [judgement.finding, judgement.alignmentSummary].compactMap { $0 }.joined(separator: ": ")
        case .error:
            item.status = .error
            item.message = judgement.finding
        }
        item.failedClauses = judgement.failedClauses
        if judgement.diagnosed && !c.identical {
            item.diagnosisClass = c.diagnosis.bugClass
            item.diagnosisConfidence = c.diagnosis.confidence
            item.diagnosis = c.diagnosis.summary
        }
        item.metrics = c.metrics.compactMapValues(\.value)
    }

    /// The pair page's context: the key, its status, a link to the index.
    func context(_ item: FolderDiffItem) -> DiffReport.Context {
        var facts: [(String, String)] = [("file", item.key), ("status", item.status.rawValue)]
        if let m = item.message { facts.append(("why", m)) }
        return DiffReport.Context(title: "imglab diff: \(item.key)", verdict: "\(item.status.rawValue)" + (item.message.map { ": " + $0 } ?? ""),
                                  verdictOK: !item.status.kind.fails, links: [.init(label: "index", href: "../index.html", rel: "up")], facts: facts)
    }
}
