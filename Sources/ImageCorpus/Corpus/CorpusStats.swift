import Foundation

/// Counts of a corpus's cases by container, pixel format, orientation, scene and tag, and of
/// the sources that carry hidden colour (read back from the generated files): what
/// `imglab corpus --stats` prints.
public struct CorpusStats: Sendable, Hashable {
    /// Cases per container.
    public var containers: [String: Int] = [:]
    /// Cases per delivered pixel format (``PixelFormatRecord/summary``).
    public var pixelFormats: [String: Int] = [:]
    /// Cases per EXIF orientation.
    public var orientations: [Int: Int] = [:]
    /// Cases per scene.
    public var scenes: [String: Int] = [:]
    /// Cases per encoding.
    public var encodings: [String: Int] = [:]
    /// Cases per document failure and per bug class.
    public var documents: [String: Int] = [:]
    public var bugClasses: [String: Int] = [:]
    /// Per container: sources with transparent (α = 0) pixels, decoded from the generated files.
    public var transparentSources: [String: Int] = [:]
    /// Per container: sources whose transparent pixels store a colour other than black, decoded
    /// from the generated files (``HiddenColourReading/carriesColour``).
    public var hiddenColourSources: [String: Int] = [:]
    /// Per container: sources with an invisible-pixel invariance twin (``CaseRecord/hiddenTwin``).
    public var hiddenTwins: [String: Int] = [:]
    /// Totals.
    public var cases = 0, pairs = 0, oracleImages = 0, files = 0, bytes = 0

    /// Counts `corpus`.
    public init(_ corpus: GeneratedCorpus) {
        for c in corpus.manifest.cases {
            cases += 1
            pairs += c.operations.count
            containers[c.container, default: 0] += 1
            pixelFormats[c.pixelFormat.summary, default: 0] += 1
            orientations[c.orientation, default: 0] += 1
            scenes[c.scene, default: 0] += 1
            encodings[c.encoding, default: 0] += 1
            for d in c.documents { documents[d, default: 0] += 1 }
            for b in c.bugClasses { bugClasses[b, default: 0] += 1 }
            if c.hiddenTwin != nil { hiddenTwins[c.container, default: 0] += 1 }
            if let bytes = corpus.files[c.file], let reading = try? HiddenColourReading(decoding: bytes), reading.transparentCount > 0 {
                transparentSources[c.container, default: 0] += 1
                if reading.carriesColour { hiddenColourSources[c.container, default: 0] += 1 }
            }
        }
        oracleImages = corpus.files.keys.filter { $0.hasPrefix("oracle/") }.count
        files = corpus.files.count
        bytes = corpus.files.values.reduce(0) { $0 + $1.count }
    }

    /// The counts as aligned text tables.
    public var text: String {
        func table(_ title: String, _ rows: [(String, Int)]) -> String {
            let width = max(title.count, rows.map(\.0.count).max() ?? 0)
            return ([title] + rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + String($0.1) })
                .joined(separator: "\n  ")
        }
        func byNumber(_ d: [String: Int]) -> [(String, Int)] {
            d.sorted { (Int($0.key.dropFirst()) ?? 0) < (Int($1.key.dropFirst()) ?? 0) }.map { ($0.key, $0.value) }
        }
        var parts = ["cases \(cases), (case, operation) pairs \(pairs), oracle images \(oracleImages), files \(files), \(bytes) bytes"]
        parts.append(table("per container:", containers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        parts.append(table("per pixel format (delivered, Quartz terms):", pixelFormats.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        parts.append(table("per orientation:", orientations.sorted { $0.key < $1.key }.map { ("\($0.key)", $0.value) }))
        parts.append(table("per scene:", scenes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        parts.append(table("per encoding:", encodings.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        parts.append(table("per document failure:", byNumber(documents)))
        parts.append(table("per bug class:", byNumber(bugClasses)))
        let hiddenContainers = transparentSources.keys.sorted()
        let width = hiddenContainers.map(\.count).max() ?? 0
        let hiddenRows = hiddenContainers.map {
            $0.padding(toLength: width, withPad: " ", startingAt: 0)
                + "  \(hiddenColourSources[$0] ?? 0) of \(transparentSources[$0] ?? 0), \(hiddenTwins[$0] ?? 0) twins"
        }
        parts.append((["hidden colour (sources whose α = 0 pixels store a colour other than black, of those with α = 0 pixels, read back from the files; twins):"]
                      + hiddenRows).joined(separator: "\n  "))
        return parts.joined(separator: "\n")
    }
}
