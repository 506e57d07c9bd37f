/// A gate: a boolean expression over metric names with lower and upper bounds, e.g.
/// `deltaE00.p99 <= 2 && ssim >= 0.98 && alpha.max <= 1`, or a range `0.99 <= ssim <= 1`.
///
/// Grammar (whitespace ignored):
/// ```
/// expression := or
/// or         := and ( "||" and )*
/// and        := unary ( "&&" unary )*
/// unary      := "!" unary | "(" expression ")" | comparison
/// comparison := operand ( ("<=" | "<" | ">=" | ">" | "==" | "!=") operand )+   // chains: a <= x <= b
/// operand    := number | metric name (letters, digits, "_" and "." — see MetricCatalog)
/// ```
/// Numbers accept `inf`. Parsing checks every name against ``MetricCatalog``; evaluation
/// fails (throws) when a named metric has no value for the images, so a gate can never pass
/// because a metric was silently missing (fail closed).
public struct GateExpression: Sendable, Hashable, CustomStringConvertible {
    /// The parsed tree.
    public indirect enum Node: Sendable, Hashable {
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
        /// A chain of comparisons `o0 op0 o1 op1 o2 …`, true when every link holds.
        case chain([Operand], [Relation])
    }

    /// A number or a metric name.
    public enum Operand: Sendable, Hashable, CustomStringConvertible {
        case number(Double)
        case metric(String)
        public var description: String {
            switch self {
            case .number(let v): return v.isInfinite ? "inf" : GateExpression.format(v)
            case .metric(let m): return m
            }
        }
    }

    /// A comparison operator.
    public enum Relation: String, Sendable, Hashable, CaseIterable {
        case lessOrEqual = "<=", less = "<", greaterOrEqual = ">=", greater = ">", equal = "==", notEqual = "!="
        /// The relation with its sides swapped (`a < b` ⇔ `b > a`).
        public var flipped: Relation {
            switch self {
            case .lessOrEqual: return .greaterOrEqual
            case .less: return .greater
            case .greaterOrEqual: return .lessOrEqual
            case .greater: return .less
            case .equal, .notEqual: return self
            }
        }
        func holds(_ a: Double, _ b: Double) -> Bool {
            switch self {
            case .lessOrEqual: return a <= b
            case .less: return a < b
            case .greaterOrEqual: return a >= b
            case .greater: return a > b
            case .equal: return a == b
            case .notEqual: return a != b
            }
        }
    }

    /// The source text.
    public let text: String
    /// The tree.
    public let root: Node

    /// The deepest nesting of parentheses and `!` an expression may have (64 levels).
    public static let maxNesting = 64
    /// The most comparisons (relations, counting each link of a chain) an expression may have (1000).
    public static let maxComparisons = 1000

    public var description: String { text }

    /// Every metric name the expression uses, in order of appearance.
    public var metricNames: [String] {
        var names: [String] = []
        func walk(_ n: Node) {
            switch n {
            case .and(let a, let b), .or(let a, let b): walk(a); walk(b)
            case .not(let a): walk(a)
            case .chain(let operands, _):
                for case .metric(let m) in operands where !names.contains(m) { names.append(m) }
            }
        }
        walk(root)
        return names
    }

    /// Parses `text`.
    /// - Throws: ``GateError/syntax(_:position:)`` or ``GateError/unknownMetric(_:suggestions:)``.
    public init(_ text: String) throws(GateError) {
        var parser = GateParser(text)
        self.text = text
        self.root = try parser.parseAll()
    }

    /// Evaluates against metric values.
    /// - Parameter value: the value of a metric name, `nil` when the metric is not defined.
    /// - Returns: whether the gate holds, and one line per comparison with the observed values.
    /// - Throws: ``GateError/missingValue(_:)`` when a metric used has no value.
    public func evaluate(_ value: (String) -> Double?) throws(GateError) -> GateResult {
        var clauses: [GateResult.Clause] = []
        func eval(_ n: Node) throws(GateError) -> Bool {
            switch n {
            case .and(let a, let b):
                let x = try eval(a), y = try eval(b)  // both sides evaluated so every clause is reported
                return x && y
            case .or(let a, let b):
                let x = try eval(a), y = try eval(b)
                return x || y
            case .not(let a): return try !eval(a)
            case .chain(let operands, let relations):
                var values: [Double] = []
                for o in operands {
                    switch o {
                    case .number(let v): values.append(v)
                    case .metric(let m):
                        guard let v = value(m) else { throw .missingValue(m) }
                        values.append(v)
                    }
                }
                var ok = true
                for (i, r) in relations.enumerated() where !r.holds(values[i], values[i + 1]) { ok = false }
                var text = ""
                for (i, o) in operands.enumerated() {
                    if case .metric(let m) = o { text += "\(m) (\(GateExpression.format(values[i])))" } else { text += o.description }
                    if i < relations.count { text += " \(relations[i].rawValue) " }
                }
                var clause = GateResult.Clause(text: text, passed: ok)
                let metricIndices = operands.indices.filter { if case .metric = operands[$0] { return true } else { return false } }
                if metricIndices.count == 1, let m = metricIndices.first, case .metric(let name) = operands[m] {
                    // The bound as seen from the metric: `-2 <= cast.a <= 2` → `>= -2, <= 2`.
                    var parts: [String] = []
                    if m > 0 { parts.append("\(relations[m - 1].flipped.rawValue) \(operands[m - 1])") }
                    if m < relations.count { parts.append("\(relations[m].rawValue) \(operands[m + 1])") }
                    clause.metric = name
                    clause.observed = values[m]
                    clause.bound = parts.joined(separator: ", ")
                }
                clauses.append(clause)
                return ok
            }
        }
        let passed = try eval(root)
        return GateResult(expression: text, passed: passed, clauses: clauses)
    }

    static func format(_ v: Double) -> String {
        if v.isInfinite { return v > 0 ? "inf" : "-inf" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
        var s = String(format: "%.6g", v)
        if s.contains("e") { s = String(v) }
        return s
    }
}

/// The outcome of a gate, with every comparison and the values it saw.
public struct GateResult: Sendable, Hashable, Codable {
    /// One comparison chain.
    public struct Clause: Sendable, Hashable, Codable {
        /// e.g. `ssim (0.9912) >= 0.98`.
        public var text: String
        public var passed: Bool
        /// When the clause compares one metric with numbers: the metric, its observed value and
        /// the bound as seen from it (`>= 0.98`, `>= -2, <= 2`). Absent otherwise, and in results
        /// written before these fields existed.
        public var metric: String?
        public var observed: Double?
        public var bound: String?

        public init(text: String, passed: Bool, metric: String? = nil, observed: Double? = nil, bound: String? = nil) {
            self.text = text
            self.passed = passed
            self.metric = metric
            self.observed = observed
            self.bound = bound
        }
    }
    public var expression: String
    public var passed: Bool
    public var clauses: [Clause]

    /// The text of each clause that failed, e.g. `exact.max (200) <= 1`.
    public var failedClauses: [String] { clauses.filter { !$0.passed }.map(\.text) }
}

/// Why a gate expression cannot be used.
public enum GateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not an expression; `position` is the character offset.
    case syntax(String, position: Int)
    /// A name that is not in ``MetricCatalog``.
    case unknownMetric(String, suggestions: [String])
    /// A metric that has no value for these images (e.g. MS-SSIM below 176 px, any pixel metric
    /// when the sizes differ): failing closed instead of passing.
    case missingValue(String)

    public var description: String {
        switch self {
        case .syntax(let why, let pos): return "gate syntax error at character \(pos + 1): \(why)"
        case .unknownMetric(let name, let suggestions):
            return "unknown metric '\(name)' in gate" + (suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?")
                + " (see 'imglab diff --help' for the list)"
        case .missingValue(let name): return "metric '\(name)' has no value for these images, so the gate cannot be evaluated"
        }
    }
}
