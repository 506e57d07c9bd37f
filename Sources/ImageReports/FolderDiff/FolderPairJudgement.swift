import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// The thumbnails of one key for the folder diff's index (``FolderThumbnail``).
struct FolderThumbnails: Sendable {
    var expected: EmbeddedImage?
    var actual: EmbeddedImage?
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

    private struct Side: Sendable {
        var compared: ComparedImage
        var bytes: [UInt8]
    }

    func run() -> FolderPairOutcome {
        var item = FolderDiffItem(key: pair.key, expected: pair.expected, actual: pair.actual, status: .error)
        var thumbnails = FolderThumbnails()
        let report = diff.reportFolder != nil
        let expectedPath = pair.expected.map { diff.expectedFolder + "/" + $0 }
        let actualPath = pair.actual.map { diff.actualFolder + "/" + $0 }
        func read(_ path: String) -> Result<[UInt8], DecodeError> {
            do throws(DecodeError) { return .success(try ImageCodecs.readFile(path, limit: diff.decode.limits.maxBytes)) } catch { return .failure(error) }
        }
        func decode(_ path: String, _ bytes: [UInt8]) -> Result<Side, DecodeError> {
            do throws(DecodeError) {
                let container = try ImageCodecs.sniff(bytes)
                let image = try ImageCodecs.decode(bytes, options: diff.decode)
                return .success(Side(compared: ComparedImage(image: image, name: path, container: container), bytes: bytes))
            } catch {
                return .failure(error)
            }
        }
        func thumbnail(_ path: String) -> EmbeddedImage? {
            guard case .success(let bytes) = read(path), case .success(let side) = decode(path, bytes) else { return nil }
            return FolderThumbnail.png(side.compared.image)
        }
        switch (expectedPath, actualPath) {
        case (nil, let a?):
            item.status = .new
            item.message = "only in the actual folder"
            if report { thumbnails.actual = thumbnail(a) }
            return FolderPairOutcome(item: item, thumbnails: thumbnails)
        case (let e?, nil):
            item.status = .deleted
            item.message = "only in the expected folder"
            if report { thumbnails.expected = thumbnail(e) }
            return FolderPairOutcome(item: item, thumbnails: thumbnails)
        case (let e?, let a?):
            let eb: [UInt8], ab: [UInt8]
            switch (read(e), read(a)) {
            case (.success(let x), .success(let y)): eb = x; ab = y
            case (.failure(let error), _): item.message = "\(e): \(error)"; return FolderPairOutcome(item: item, thumbnails: thumbnails)
            case (_, .failure(let error)): item.message = "\(a): \(error)"; return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            if eb == ab {
                item.status = .unchanged
                item.message = "same bytes"
                if report, case .success(let side) = decode(e, eb) {
                    thumbnails.expected = FolderThumbnail.png(side.compared.image)
                    thumbnails.actual = thumbnails.expected
                }
                return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            let expected: Side, actual: Side
            switch (decode(e, eb), decode(a, ab)) {
            case (.success(let x), .success(let y)): expected = x; actual = y
            case (.failure(let error), _): item.message = "\(e): \(error)"; return FolderPairOutcome(item: item, thumbnails: thumbnails)
            case (_, .failure(let error)): item.message = "\(a): \(error)"; return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            let shown = expected.compared.image.displaySize
            let mask: PixelMask?
            do { mask = try diff.ignored.resolved(width: shown.width, height: shown.height) } catch {
                item.message = error.description
                return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            if mask == nil && Self.identicalByValue(expected.compared.image, actual.compared.image) {
                item.status = .unchanged
                item.message = "identical by value"
                if report {
                    thumbnails.expected = FolderThumbnail.png(expected.compared.image)
                    thumbnails.actual = thumbnails.expected
                }
                return FolderPairOutcome(item: item, thumbnails: thumbnails)
            }
            var pairJudge = judge
            pairJudge.ignored = mask
            let judgement = pairJudge.judge(expected: expected.compared, actual: actual.compared)
            classify(judgement, into: &item)
            item.ignoredPixels = judgement.comparison.value("ignored.pixels").map { Int($0) }
            if report {
                thumbnails.expected = FolderThumbnail.png(expected.compared.image)
                thumbnails.actual = FolderThumbnail.png(actual.compared.image)
            }
            var writeError: (path: String, reason: String)?
            if let folder, item.status != .unchanged {
                let page = RunReport.pagePath(index: index, pair: pair.key)
                do {
                    let images = try DiffReport.Images.make(expected: expected.compared, actual: actual.compared,
                                                            expectedFile: expected.bytes, actualFile: actual.bytes, ignored: mask)
                    let html = DiffReport.html(judgement, images: images, context: context(item))
                    try folder.write(Array(html.utf8), to: page)
                    item.page = page
                } catch {
                    writeError = (folder.path + "/" + page, "\(error)")
                }
            }
            return FolderPairOutcome(item: item, thumbnails: thumbnails, writeError: writeError)
        case (nil, nil):
            item.message = "no file on either side"
            return FolderPairOutcome(item: item, thumbnails: thumbnails)
        }
    }

    /// Whether two images are identical by value as displayed (``Comparison/identical``'s rule:
    /// the same displayed size and the same straight 16-bit samples): the same first frame,
    /// format and orientation, or the same values. Such a pair is unchanged whatever the gate,
    /// and is not judged (its metrics are those of identical images).
    static func identicalByValue(_ e: Image, _ a: Image) -> Bool {
        if e.orientation == a.orientation && e.bitmap == a.bitmap { return true }
        let withAlpha = e.format.hasAlpha || a.format.hasAlpha
        let ev = ValueImage(e, withAlpha: withAlpha), av = ValueImage(a, withAlpha: withAlpha)
        return ev.width == av.width && ev.height == av.height && ev.samples == av.samples
    }

    /// The status, message, diagnosis and metrics of a judged pair.
    func classify(_ judgement: Judgement, into item: inout FolderDiffItem) {
        let c = judgement.comparison
        switch judgement.verdict {
        case .pass:
            item.status = c.identical ? .unchanged : .withinGate
            item.message = c.identical ? "identical by value" : judgement.gate.map { "within the gate \($0.expression)" }
        case .fail:
            item.status = .changed
            if judgement.gate != nil {
                item.message = judgement.failedClauses.joined(separator: "; ")
            } else if let x = c.exact {
                let total = x.histogram.reduce(0, +)
                item.message = String(format: "%d of %d pixels differ, max |Δ| %@", x.differingPixels, total, DiffReport.format(c.value("exact.max")))
            }
        case .differentSizes:
            item.status = .changed
            item.message = judgement.sizeFinding
        case .canariesFailed:
            item.status = .error
            item.message = "canaries failed, the gate was not evaluated: " + (judgement.canaryFailures ?? []).map(\.description).joined(separator: "; ")
        case .gateUnusable(let error):
            item.status = .error
            item.message = error.description
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
                                  verdictOK: !item.status.failsDiff, links: [.init(label: "index", href: "../index.html", rel: "up")], facts: facts)
    }
}
