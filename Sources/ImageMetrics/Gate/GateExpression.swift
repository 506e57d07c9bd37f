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
/// Numbers accept `inf`. Parsing checks every name against ``MetricCatalog``.
///
/// A metric can have no value for some images (SSIM below 11 × 11 pixels, MS-SSIM below 176).
/// A comparison that names it is then *unknown*, and the connectives follow Kleene's
/// three-valued logic: `unknown || true` is true, `unknown && false` is false, `!unknown` is
/// unknown. A gate whose result is unknown fails to evaluate (throws), so a gate can never pass
/// because a metric was silently missing (fail closed); it passes without one only when its
/// text says so, e.g. `(ssim >= 0.96 || size.min < 11)`.
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
        /// The relation that holds where this one does not (`a <= b` fails ⇔ `a > b`).
        public var negated: Relation {
            switch self {
            case .lessOrEqual: return .greater
            case .less: return .greaterOrEqual
            case .greaterOrEqual: return .less
            case .greater: return .lessOrEqual
            case .equal: return .notEqual
            case .notEqual: return .equal
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
    /// - Throws: ``GateError/missingValue(_:)`` when the result depends on a metric without a
    ///   value (see the type's notes on unknown comparisons).
    public func evaluate(_ value: (String) -> Double?) throws(GateError) -> GateResult {
        var clauses: [GateResult.Clause] = []
        var missing: [String] = []
        // nil: unknown, a comparison named a metric without a value (Kleene's third value).
        func eval(_ n: Node) -> Bool? {
            switch n {
            case .and(let a, let b):
                let x = eval(a), y = eval(b)  // both sides evaluated so every clause is reported
                if x == false || y == false { return false }
                return x == true && y == true ? true : nil
            case .or(let a, let b):
                let first = clauses.count
                let x = eval(a), y = eval(b)
                if x == true || y == true {
                    // The alternatives that failed did not fail the gate.
                    for i in first..<clauses.count where !clauses[i].passed { clauses[i].excused = true }
                    return true
                }
                return x == false && y == false ? false : nil
            case .not(let a): return eval(a).map { !$0 }
            case .chain(let operands, let relations):
                let values = operands.map { o -> Double? in
                    switch o {
                    case .number(let v): return v
                    case .metric(let m): return value(m)
                    }
                }
                var known: [Double] = []
                for (o, v) in zip(operands, values) {
                    if let v { known.append(v) } else if case .metric(let m) = o, !missing.contains(m) { missing.append(m) }
                }
                var clause = GateResult.Clause(text: text, passed: false)
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
                guard known.count == operands.count else {
                    clause.text = GateExpression.clauseText(operands, values: values, relations: relations) + ": unknown"
                    clauses.append(clause)
                    return nil
                }
                // Each relation as it is between the observed values: `visible.max 199.1 > 84.4: fails`.
                let observed = relations.indices.map { i in relations[i].holds(known[i], known[i + 1]) ? relations[i] : relations[i].negated }
                let ok = observed == relations
                clause.text = GateExpression.clauseText(operands, values: values, relations: observed) + (ok ? ": holds" : ": fails")
                clause.passed = ok
                clauses.append(clause)
                return ok
            }
        }
        guard let passed = eval(root) else { throw .missingValue(missing.first ?? "?") }
        return GateResult(expression: text, passed: passed, clauses: clauses)
    }

    /// `cast.a -3 >= -2 <= 2`: each metric followed by its value (`(no value)` when it has none).
    static func clauseText(_ operands: [Operand], values: [Double?], relations: [Relation]) -> String {
        var text = ""
        for (i, o) in operands.enumerated() {
            if case .metric(let m) = o { text += "\(m) " + (values[i].map(GateExpression.format) ?? "(no value)") } else { text += o.description }
            if i < relations.count { text += " \(relations[i].rawValue) " }
        }
        return text
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
        /// The comparison as it turned out, e.g. `ssim 0.9912 >= 0.98: holds`, `visible.max 199.1 > 84.4: fails`,
        /// `ssim (no value) >= 0.9: unknown`.
        public var text: String
        public var passed: Bool
        /// When the clause compares one metric with numbers: the metric, its observed value and
        /// the bound as seen from it (`>= 0.98`, `>= -2, <= 2`). Absent otherwise, and in results
        /// written before these fields existed.
        public var metric: String?
        public var observed: Double?
        public var bound: String?
        /// `true` when the clause failed (or had no value) but an alternative of `||` held, so
        /// it did not fail the gate; absent otherwise.
        public var excused: Bool?

        public init(text: String, passed: Bool, metric: String? = nil, observed: Double? = nil, bound: String? = nil, excused: Bool? = nil) {
            self.text = text
            self.passed = passed
            self.metric = metric
            self.observed = observed
            self.bound = bound
            self.excused = excused
        }
    }
    public var expression: String
    public var passed: Bool
    public var clauses: [Clause]

    /// The text of each clause that failed the gate, e.g. `exact.max 200 > 1: fails` (not those an
    /// alternative of `||` excused).
    public var failedClauses: [String] { clauses.filter { !$0.passed && $0.excused != true }.map(\.text) }
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
