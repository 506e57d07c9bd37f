import Foundation
import Testing
import ImageReports
import ImageCore
import ImageMetrics
@testable import ImageLab
@testable import ImageCorpus

/// `imglab reproduce`'s library part: the pair sample, the exposing numbers, the verdict rule and
/// the report, over the committed quick corpus.
@Suite("Reproduce")
struct ReproductionTests {
    static let corpus = QuickCorpus.packageRoot.appendingPathComponent("Corpus").path

    /// A catalogue entry whose every text is hostile HTML, on a real bug (R↔B swapped).
    static let hostile = Mutant(
        id: "<img src=x onerror=alert(1)>", topic: "<b>topic</b>", title: "<script>alert('title')</script>",
        history: "\"><iframe src=\"https://evil.example/\"></iframe> & more", references: ["<D6>", "B1&"],
        bugClass: "channel-order",
        triggers: { $0.record.scene == "colorPatches" },
        make: { ChannelSwapMutant($0) })

    @Test("the hue angle of a cast vector is atan2(Δb*, Δa*) in degrees, 0…360", arguments: [
        (1.0, 0.0, 0.0), (0.0, 2.0, 90.0), (-3.0, 0.0, 180.0), (0.0, -1.0, 270.0), (1.0, -1.0, 315.0), (-1.0, 1.0, 135.0),
    ])
    func hueAngle(_ da: Double, _ db: Double, _ degrees: Double) {
        #expect(abs(ExposedValue.hueAngle(da: da, db: db) - degrees) < 1e-9)
    }

    @Test("a mutant reproduces when caught at least once and named on at least 90 % of the catches, without exceptions", arguments: [
        (0, 0, false), (1, 1, true), (1, 0, false), (10, 9, true), (10, 8, false),
        (20, 18, true), (3, 2, false), (92, 25, false), (37, 33, false), (37, 34, true),
    ])
    func verdictRule(_ caught: Int, _ named: Int, _ reproduces: Bool) {
        #expect(ReproduceResults.reproduces(caught: caught, named: named) == reproduces)
    }

    @Test("the sample is capped, has no duplicate, and takes its first pairs from three different scenes in preference order")
    func sampleSpreads() throws {
        let all = LabPair.all(in: try LabRunner.manifest(corpus: Self.corpus))
        let preferred = ["landscape", "colorPatches", "softAlpha"]
        let picked = ReproduceSample.pick(all, preferring: preferred, limit: 12)
        #expect(picked.count == 12)
        #expect(Set(picked.map(\.id)).count == 12)
        #expect(picked.prefix(3).map(\.record.scene) == preferred)
        // Every case of a scene gives one pair before any gives a second: the 4 picks of each
        // preferred scene come from 4 different cases (each of these scenes has at least 4).
        for scene in preferred {
            let cases = picked.filter { $0.record.scene == scene }.map(\.record.id)
            #expect(cases.count == 4 && Set(cases).count == 4, "\(scene): \(cases)")
        }
        #expect(ReproduceSample.pick(all, preferring: preferred, limit: 12).map(\.id) == picked.map(\.id))
        #expect(ReproduceSample.pick(Array(all.prefix(2)), preferring: [], limit: 12).count == 2)
    }

    @Test("R↔B swapped reproduces as channel-order on colourful pairs, and the correct output passes the same gates")
    func channelSwapReproduces() throws {
        let reproduction = Reproduction(topic: "channel-swap", mutants: [Self.hostile], corpus: Self.corpus, limit: 6, threads: 2)
        let r = try reproduction.run().results
        #expect(r.pairs.count == 6)
        #expect(r.pairs.allSatisfy { $0.pair.contains("colorPatches") })
        #expect(r.reproduced)
        for p in r.pairs {
            #expect(p.correct.verdict == .pass, "\(p.pair): the built-in resizer \(p.correct.verdict.rawValue)")
            #expect(p.caught && p.named && p.buggy.diagnosis?.bugClass == "channel-order", "\(p.pair): \(p.namedAs ?? "missed")")
            // Swapping R and B changes a colourful image's mean chroma: the cast leads.
            #expect(p.exposing?.metric == .colourCast, "\(p.pair)")
        }
    }

    @Test("the results and the report are the same bytes on 1 and 2 threads")
    func deterministic() throws {
        let one = try Reproduction(topic: "channel-swap", mutants: [Self.hostile], corpus: Self.corpus, limit: 4, threads: 1).run()
        let two = try Reproduction(topic: "channel-swap", mutants: [Self.hostile], corpus: Self.corpus, limit: 4, threads: 2).run()
        #expect(try one.results.jsonData() == two.results.jsonData())
        #expect(ReproduceReport.html(one) == ReproduceReport.html(two))
    }

    @Test("a bug the lab cannot see does not reproduce: an identity 'mutant' is missed on every pair")
    func identityDoesNotReproduce() throws {
        let identity = Mutant(id: "identity", topic: "none", title: "no bug", history: "", references: [], bugClass: "channel-order",
                              triggers: { $0.record.scene == "landscape" }, make: { $0 })
        let r = try Reproduction(topic: "none", mutants: [identity], corpus: Self.corpus, limit: 3, threads: 2).run().results
        #expect(r.pairs.count == 3)
        #expect(!r.reproduced)
        // The identity's output is the built-in one, which passes every gate of the quick lab.
        #expect(r.pairs.allSatisfy { !$0.caught && !$0.named && $0.buggy.verdict == .pass })
        #expect(r.mutants.first?.caught == 0)
    }

    @Test("a mutant that no pair of the corpus triggers does not reproduce, and the report says so")
    func nothingTriggers() throws {
        let never = Mutant(id: "never", topic: "none", title: "never triggered", history: "", references: [], bugClass: "channel-order",
                           triggers: { _ in false }, make: { ChannelSwapMutant($0) })
        let outcome = try Reproduction(topic: "none", mutants: [never], corpus: Self.corpus, limit: 3, threads: 2).run()
        #expect(outcome.results.pairs.isEmpty)
        #expect(outcome.results.mutants.map(\.pairs) == [0])
        #expect(!outcome.results.reproduced)
        #expect(ReproduceReport.html(outcome).contains("no pair of the corpus triggers it"))
    }

    @Test("every string of the report is escaped: hostile catalogue text yields no tag of its own")
    func reportEscapes() throws {
        let outcome = try Reproduction(topic: "<b>topic</b>", mutants: [Self.hostile], corpus: Self.corpus, limit: 3, threads: 2).run()
        let html = ReproduceReport.html(outcome)
        for raw in ["<script>alert", "<img src=x", "<iframe", "<b>topic", "<D6>"] {
            #expect(!html.contains(raw), "unescaped: \(raw)")
        }
        for escaped in ["&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;", "&lt;b&gt;topic&lt;/b&gt;",
                        "&quot;&gt;&lt;iframe", "B1&amp;", "&amp; more"] {
            #expect(html.contains(escaped), "missing: \(escaped)")
        }
        // Every tag in the page is one the report itself writes.
        let allowed: Set<String> = ["!DOCTYPE", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "code", "section",
                                    "div", "table", "tr", "th", "td", "a", "b", "strong", "span", "br", "nav", "button", "input", "figure",
                                    "figcaption", "img", "svg", "circle", "line", "text", "footer", "script"]
        var tags: Set<String> = []
        let scalars = Array(html.unicodeScalars)
        for (i, ch) in scalars.enumerated() where ch == "<" && i + 1 < scalars.count {
            var name = ""
            var j = i + 1
            if scalars[j] == "/" { j += 1 }
            while j < scalars.count, scalars[j].properties.isAlphabetic || scalars[j] == "!" || ("0"..."9").contains(scalars[j]) {
                name.unicodeScalars.append(scalars[j]); j += 1
            }
            tags.insert(name)
        }
        #expect(tags.subtracting(allowed).isEmpty, "\(tags.subtracting(allowed))")
        #expect(html.components(separatedBy: "<script>").count == 2, "one script, the report's own")
    }

    @Test("the report is self-contained: a CSP without network, every image a data URI, links only within the page")
    func reportSelfContained() throws {
        let outcome = try Reproduction(topic: "channel-swap", mutants: [Self.hostile], corpus: Self.corpus, limit: 3, threads: 2).run()
        let html = ReproduceReport.html(outcome)
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:;"))
        let sources = html.components(separatedBy: " src=\"").dropFirst()
        // Three panes and a heat map per pair.
        #expect(sources.count == 3 * 4)
        for s in sources { #expect(s.hasPrefix("data:image/png;base64,"), "\(s.prefix(40))") }
        for h in html.components(separatedBy: " href=\"").dropFirst() { #expect(h.hasPrefix("#"), "\(h.prefix(40))") }
        #expect(!html.contains("url("))
        // The hostile history's https URL is present only as escaped text.
        #expect(!html.contains("src=\"https://"))
    }
}
