/// The recursive-descent parser behind ``GateExpression`` (grammar there). Its recursion is
/// bounded: at most ``GateExpression/maxNesting`` levels of parentheses and `!`, and at most
/// ``GateExpression/maxComparisons`` comparisons, so the tree it builds is shallow enough to
/// walk and free recursively.
struct GateParser {
    private let chars: [Character]
    private var i = 0
    /// Parentheses and `!` open around the current position.
    private var nesting = 0
    /// Relations read so far.
    private var comparisons = 0

    init(_ text: String) { chars = Array(text) }

    mutating func parseAll() throws(GateError) -> GateExpression.Node {
        let node = try parseOr()
        skipSpace()
        guard i == chars.count else { throw .syntax("unexpected '\(chars[i])'", position: i) }
        return node
    }

    private mutating func skipSpace() { while i < chars.count && chars[i].isWhitespace { i += 1 } }

    private mutating func take(_ token: String) -> Bool {
        skipSpace()
        let t = Array(token)
        guard i + t.count <= chars.count, Array(chars[i..<(i + t.count)]) == t else { return false }
        i += t.count
        return true
    }

    private mutating func parseOr() throws(GateError) -> GateExpression.Node {
        var left = try parseAnd()
        while take("||") { left = .or(left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws(GateError) -> GateExpression.Node {
        var left = try parseUnary()
        while take("&&") { left = .and(left, try parseUnary()) }
        return left
    }

    /// Enters one level of parentheses or `!` at `position`, refusing to go past the limit.
    private mutating func enter(at position: Int) throws(GateError) {
        nesting += 1
        guard nesting <= GateExpression.maxNesting else {
            throw .syntax("nested deeper than \(GateExpression.maxNesting) levels of parentheses and '!', the limit", position: position)
        }
    }

    private mutating func parseUnary() throws(GateError) -> GateExpression.Node {
        skipSpace()
        if i < chars.count && chars[i] == "!" && !(i + 1 < chars.count && chars[i + 1] == "=") {
            try enter(at: i)
            i += 1
            let inner = try parseUnary()
            nesting -= 1
            return .not(inner)
        }
        let start = i
        if take("(") {
            try enter(at: start)
            let inner = try parseOr()
            guard take(")") else { throw .syntax("missing ')'", position: i) }
            nesting -= 1
            return inner
        }
        return try parseChain()
    }

    private mutating func parseChain() throws(GateError) -> GateExpression.Node {
        var operands = [try parseOperand()]
        var relations: [GateExpression.Relation] = []
        while let r = parseRelation() {
            comparisons += 1
            guard comparisons <= GateExpression.maxComparisons else {
                throw .syntax("more than \(GateExpression.maxComparisons) comparisons, the limit", position: i)
            }
            relations.append(r)
            operands.append(try parseOperand())
        }
        guard !relations.isEmpty else {
            throw .syntax("expected a comparison (<=, <, >=, >, ==, !=) after '\(operands[0])'", position: i)
        }
        guard operands.contains(where: { if case .metric = $0 { return true } else { return false } }) else {
            throw .syntax("a comparison must name a metric", position: i)
        }
        return .chain(operands, relations)
    }

    private mutating func parseRelation() -> GateExpression.Relation? {
        for r in [GateExpression.Relation.lessOrEqual, .greaterOrEqual, .equal, .notEqual, .less, .greater] where take(r.rawValue) {
            return r
        }
        return nil
    }

    private mutating func parseOperand() throws(GateError) -> GateExpression.Operand {
        skipSpace()
        guard i < chars.count else { throw .syntax("expression ends where a number or metric name was expected", position: i) }
        let start = i
        let c = chars[i]
        if c.isNumber || c == "-" || c == "+" || c == "." {
            i += 1
            while i < chars.count && (chars[i].isNumber || chars[i] == "." || chars[i] == "e" || chars[i] == "E"
                                      || ((chars[i] == "-" || chars[i] == "+") && (chars[i - 1] == "e" || chars[i - 1] == "E"))) { i += 1 }
            let text = String(chars[start..<i])
            guard let v = Double(text), v.isFinite else { throw .syntax("'\(text)' is not a number", position: start) }
            return .number(v)
        }
        guard c.isLetter else { throw .syntax("unexpected '\(c)'", position: i) }
        while i < chars.count && (chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == ".") { i += 1 }
        let name = String(chars[start..<i])
        if name == "inf" { return .number(.infinity) }
        guard MetricCatalog.definition(named: name) != nil else {
            let stem = name.split(separator: ".").first.map(String.init) ?? name
            let suggestions = MetricCatalog.all.map(\.name).filter { $0.hasPrefix(stem) }.prefix(6)
            throw .unknownMetric(name, suggestions: Array(suggestions))
        }
        return .metric(name)
    }
}
