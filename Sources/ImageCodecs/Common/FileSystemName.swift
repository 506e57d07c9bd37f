#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names as the file system holds them: bytes, which need not be UTF-8. A Swift `String`
/// cannot hold a byte that is not UTF-8, so each such byte (always 0x80…0xFF) is carried as the
/// private-use code point U+10FF00 + byte (U+10FF80…U+10FFFF), in the manner of Python's
/// `surrogateescape`, and turned back into that byte when the name goes to the system. Command
/// lines are decoded with ``string(fromArgument:)``; every open, stat and rename of a user's
/// path goes through ``withRepresentation(_:_:)``. (A valid name that itself contains one of
/// those 128 code points, never assigned to a character, is read as the escaped byte.)
public enum FileSystemName {
    /// The first code point of the escape range; byte `b` is `escapeBase + b`.
    static let escapeBase: UInt32 = 0x10FF00

    /// This process's command-line arguments after the program name, from their raw bytes (not
    /// `CommandLine.arguments`, which replaces bytes that are not UTF-8 and so loses file names).
    public static var commandLineArguments: [String] {
        (1..<Int(CommandLine.argc)).map { i in
            string(fromArgument: CommandLine.unsafeArgv[i].map { pointer in
                Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) }
            } ?? [])
        }
    }

    /// The string for a command-line argument's bytes: itself when they are UTF-8, otherwise
    /// with each byte that is not part of a valid sequence escaped.
    public static func string(fromArgument bytes: [UInt8]) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < bytes.count {
            let length = sequenceLength(bytes, at: i)
            if length > 0, let s = String(validating: bytes[i..<(i + length)], as: UTF8.self) {
                scalars.append(contentsOf: s.unicodeScalars)
                i += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[i])) ?? "\u{FFFD}")
                i += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `name` stands for on the file system: its UTF-8, with escaped bytes restored.
    public static func bytes(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.value >= escapeBase + 0x80, scalar.value <= escapeBase + 0xFF {
                out.append(UInt8(scalar.value - escapeBase))
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with the NUL-terminated bytes `name` stands for.
    public static func withRepresentation<R>(_ name: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let raw = bytes(name).map { CChar(bitPattern: $0) } + [0]
        return try raw.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("a terminated name is never empty") }
            return try body(base)
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (by its lead byte), or 0
    /// when the lead byte cannot start one or the sequence runs past the end.
    static func sequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let lead = bytes[i]
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        return i + length <= bytes.count ? length : 0
    }
}
