import ImageCore
import ImageCodecs

/// A deterministic mutation fuzzer for the decoders.
///
/// Input `i` of a run with seed `s` is always the same bytes: seed file `i mod n` mutated by a
/// generator seeded with `(s, i)`, so any finding is reproduced with `--replay i`.
/// Mutations: bit flips, interesting byte values, truncation, header field edits (16/32-bit
/// values in both byte orders in the first 64 bytes), structure shuffles (PNG chunks and JPEG
/// marker segments reordered, duplicated or dropped; other containers in blocks), inserted
/// noise, splices of two seeds, and edits of a PNG's filtered rows (inflated, edited and
/// deflated again, so they reach the unfiltering). Half of the PNG inputs then get every chunk
/// CRC recomputed: without that, almost every edit inside a chunk stops at the CRC check.
public struct MutationFuzzer: Sendable {
    /// The kinds of mutation, cycled so every kind hits every container.
    public enum Mutation: String, CaseIterable, Sendable {
        case bitFlip, interestingBytes, truncate, headerField, structureShuffle, insertNoise, splice, filteredRows
    }

    /// One seed input.
    public struct Seed: Sendable, Hashable {
        /// Where it came from (`png-rgba8-plain`, a file's relative path).
        public var name: String
        /// The file's bytes.
        public var bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// The inputs mutations start from (never empty).
    public let seeds: [Seed]
    /// The run seed: with the input number it fixes every random choice.
    public let runSeed: UInt64

    /// A fuzzer over `seeds` with run seed `runSeed`; `nil` when there is no seed.
    public init?(seeds: [Seed], runSeed: UInt64) {
        guard !seeds.isEmpty else { return nil }
        self.seeds = seeds
        self.runSeed = runSeed
    }

    /// One mutated input and how it was made.
    public struct Input: Sendable, Hashable {
        public var bytes: [UInt8]
        /// The seed's name.
        public var seed: String
        /// The mutations applied, in order.
        public var mutations: [Mutation]
        /// Whether the PNG chunk CRCs were recomputed after the mutations.
        public var checksumsRecomputed: Bool
    }

    /// SplitMix64: small, fast, and the same on every platform.
    struct Generator: RandomNumberGenerator, Sendable {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// The mutated input number `index`, a pure function of (``runSeed``, `index`): seed
    /// `index mod n`, first mutation kind `(index / n) mod 8` (n seeds; `index` read as unsigned).
    public func input(_ index: Int) -> Input {
        let number = UInt(bitPattern: index), n = UInt(seeds.count)
        var rng = Generator(state: runSeed &* 0x2545_F491_4F6C_DD1D ^ UInt64(number))
        let seed = seeds[Int(number % n)]
        var bytes = seed.bytes
        // The first mutation cycles through every kind; one or two random ones may follow.
        var applied = [Mutation.allCases[Int((number / n) % UInt(Mutation.allCases.count))]]
        for _ in 0..<Int.random(in: 0...2, using: &rng) { applied.append(Mutation.allCases.randomElement(using: &rng) ?? .bitFlip) }
        for m in applied { bytes = mutate(bytes, m, &rng) }
        let recompute = ContainerFormat(sniffing: bytes) == .png && Bool.random(using: &rng)
        if recompute { bytes = PNGChunkEditing.recomputingChecksums(bytes) }
        return Input(bytes: bytes, seed: seed.name, mutations: applied, checksumsRecomputed: recompute)
    }

    private static let interesting8: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF, 0xFE, 0x10, 0x40]
    private static let interesting32: [UInt32] = [0, 1, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000, 100_000,
                                                 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0xFFFF_FFFE]

    private func mutate(_ input: [UInt8], _ m: Mutation, _ rng: inout Generator) -> [UInt8] {
        var b = input
        guard !b.isEmpty else { return b }
        switch m {
        case .bitFlip:
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                let bit = Int.random(in: 0..<(b.count * 8), using: &rng)
                b[bit / 8] ^= UInt8(1 << (bit % 8))
            }
        case .interestingBytes:
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                b[Int.random(in: 0..<b.count, using: &rng)] = Self.interesting8.randomElement(using: &rng) ?? 0
            }
        case .truncate:
            b.removeLast(Int.random(in: 1...b.count, using: &rng))
        case .headerField:
            let value = Self.interesting32.randomElement(using: &rng) ?? 0
            let width = Bool.random(using: &rng) ? 2 : 4
            let little = Bool.random(using: &rng)
            let limit = min(b.count, 64)
            guard limit > width else { break }
            let at = Int.random(in: 0...(limit - width), using: &rng)
            for k in 0..<width {
                let shift = little ? 8 * k : 8 * (width - 1 - k)
                b[at + k] = UInt8(truncatingIfNeeded: value >> UInt32(shift))
            }
        case .structureShuffle:
            var parts = Self.segments(b)
            guard parts.count > 2 else { break }
            let i = Int.random(in: 1..<parts.count, using: &rng), j = Int.random(in: 1..<parts.count, using: &rng)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: parts.swapAt(i, j)
            case 1: parts.insert(parts[i], at: j)
            default: parts.remove(at: i)
            }
            b = parts.flatMap { $0 }
        case .insertNoise:
            let at = Int.random(in: 0...b.count, using: &rng)
            let noise = (0..<Int.random(in: 1...32, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            b.insert(contentsOf: noise, at: at)
        case .splice:
            let other = seeds.randomElement(using: &rng)?.bytes ?? []
            guard !other.isEmpty else { break }
            let cut = Int.random(in: 0...b.count, using: &rng), from = Int.random(in: 0..<other.count, using: &rng)
            b = Array(b[..<cut]) + Array(other[from...])
        case .filteredRows:
            guard ContainerFormat(sniffing: b) == .png, var rows = PNGChunkEditing.filteredRows(b, maxBytes: 16 << 20),
                  !rows.isEmpty else { return mutate(b, .bitFlip, &rng) }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:  // a filter-type byte: the five types (§7.3), one past them, or any value
                let value = [0, 1, 2, 3, 4, 5, 0xFF, UInt8.random(in: 0...255, using: &rng)].randomElement(using: &rng) ?? 5
                rows[Int.random(in: 0..<rows.count, using: &rng)] = value
            case 1:
                for _ in 0..<Int.random(in: 1...8, using: &rng) {
                    rows[Int.random(in: 0..<rows.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            case 2:  // fewer rows than the header promises
                rows.removeLast(Int.random(in: 1...rows.count, using: &rng))
            default:  // more data than the header promises
                rows += (0..<Int.random(in: 1...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            b = PNGChunkEditing.replacingFilteredRows(b, with: rows) ?? b
        }
        return b
    }

    /// Splits a file into structural pieces: PNG chunks, JPEG marker segments, or 8 blocks.
    static func segments(_ b: [UInt8]) -> [[UInt8]] {
        switch ContainerFormat(sniffing: b) {
        case .png?:
            return PNGChunkEditing.pieces(b)
        case .jpeg?:
            var parts: [[UInt8]] = []
            var start = 0
            for p in 2..<max(2, b.count - 1) where b[p] == 0xFF && b[p + 1] != 0 && b[p + 1] != 0xFF {
                parts.append(Array(b[start..<p]))
                start = p
            }
            parts.append(Array(b[start...]))
            return parts
        default:
            let size = max(1, b.count / 8)
            return stride(from: 0, to: b.count, by: size).map { Array(b[$0..<min(b.count, $0 + size)]) }
        }
    }
}
