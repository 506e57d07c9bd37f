import Testing
@testable import ImageLab
@testable import ImageCorpus

@Suite("Run selection")
struct RunSelectionTests {
    static let ids = (0..<500).map { "case-\($0 % 37)-48x32/op-\($0)" }

    @Test("shards 1/3, 2/3 and 3/3 partition the pairs")
    func shardsPartition() throws {
        var seen: [String: Int] = [:]
        for i in 1...3 {
            let s = try RunSelection(shardIndex: i, shardCount: 3)
            for id in Self.ids where s.selects(id) { seen[id, default: 0] += 1 }
        }
        #expect(seen.count == Self.ids.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test("a pair's shard is FNV-1a 64 of its id mod N, plus 1")
    func fnvShard() {
        // FNV-1a 64-bit test vectors (Fowler, Noll, Vo): "" → cbf29ce484222325, "a" → af63dc4c8601ec8c.
        #expect(RunSelection.shard(of: "", count: 1000) == Int(UInt64(0xcbf2_9ce4_8422_2325) % 1000) + 1)
        #expect(RunSelection.shard(of: "a", count: 7) == Int(UInt64(0xaf63_dc4c_8601_ec8c) % 7) + 1)
    }

    @Test("filters: substring without wildcards, glob with them, commas for any-of")
    func filters() throws {
        let id = "png-rgba8-softAlpha-48x32/resize-aspectFit-24x24"
        for pattern in ["softAlpha", "png-*/resize-aspectFit-*", "*/resize-aspectFit-24x24", "png-rgba8-softAlpha-48x32/resize-aspectFit-2?x24", "nomatch,softAlpha"] {
            #expect(try RunSelection(filter: pattern).selects(id), "\(pattern)")
        }
        for pattern in ["jpeg", "*/orient", "png-*/resize-aspectFit-16x16", "png-rgba8-softAlpha-48x32/resize-aspectFit-2?x2"] {
            #expect(try !RunSelection(filter: pattern).selects(id), "\(pattern)")
        }
    }

    @Test("shard text must be I/N with 1 ≤ I ≤ N", arguments: ["0/3", "4/3", "3", "a/b", "1/0", "-1/2"])
    func badShard(_ text: String) {
        #expect(RunSelection.parseShard(text) == nil)
    }
}
