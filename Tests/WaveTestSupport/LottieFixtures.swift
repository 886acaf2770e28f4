import Foundation

/// Small Lottie files written by hand, each with one feature whose pixels
/// are known exactly: a 100x100 composition at 10 frames a second, frames
/// 0 to 20, on which every outline has whole-pixel edges.
public enum LottieFixtures {
    /// A composition holding `layers` (JSON objects, top first) and `assets`.
    public static func file(_ layers: [String], assets: [String] = []) -> String {
        """
        {"v":"5.7.0","fr":10,"ip":0,"op":20,"w":100,"h":100,"nm":"fixture","ddd":0,
         "assets":[\(assets.joined(separator: ","))],"layers":[\(layers.joined(separator: ","))]}
        """
    }

    /// A static value.
    public static func value(_ v: String) -> String { #"{"a":0,"k":\#(v)}"# }

    /// Linear keyframes: (frame, value) pairs; `hold` makes each one hold until the next.
    public static func keyframes(_ frames: [(Double, String)], hold: Bool = false) -> String {
        let list = frames.map { f, v in
            #"{"t":\#(f),"s":\#(v),"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}\#(hold ? #","h":1"# : "")}"#
        }
        return #"{"a":1,"k":[\#(list.joined(separator: ","))]}"#
    }

    /// A layer transform: position `p` (a property), anchor 0, scale 100%.
    public static func transform(position: String = value("[0,0]"), opacity: String = value("100")) -> String {
        #"{"a":\#(value("[0,0]")),"p":\#(position),"s":\#(value("[100,100]")),"r":\#(value("0")),"o":\#(opacity)}"#
    }

    /// A shape layer of `items` (shape items, top first).
    public static func shapeLayer(index: Int = 1, items: [String], position: String = value("[0,0]"), parent: Int? = nil,
                                  start: Double = 0, extra: String = "") -> String {
        #"{"ddd":0,"ind":\#(index),"ty":4,"nm":"layer \#(index)","ks":\#(transform(position: position)),"ip":0,"op":20,"st":\#(start),"sr":1\#(parent.map { #","parent":\#($0)"# } ?? "")\#(extra),"shapes":[\#(items.joined(separator: ","))]}"#
    }

    public static func rectangle(x: Double, y: Double, width: Double, height: Double) -> String {
        #"{"ty":"rc","p":\#(value("[\(x + width / 2),\(y + height / 2)]")),"s":\#(value("[\(width),\(height)]")),"r":\#(value("0"))}"#
    }

    /// An open path through `points`.
    public static func line(_ points: [(Double, Double)], closed: Bool = false) -> String {
        #"{"ty":"sh","ks":{"a":0,"k":\#(path(points, closed: closed))}}"#
    }

    /// A path's value of straight segments through `points` (a shape's `ks`, a mask's `pt`, one keyframe's value).
    public static func path(_ points: [(Double, Double)], closed: Bool = true) -> String {
        let v = points.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
        let zero = points.map { _ in "[0,0]" }.joined(separator: ",")
        return #"{"c":\#(closed),"v":[\#(v)],"i":[\#(zero)],"o":[\#(zero)]}"#
    }

    /// A fill of red, green, blue 0...1.
    public static func fill(_ r: Double, _ g: Double, _ b: Double) -> String {
        #"{"ty":"fl","c":\#(value("[\(r),\(g),\(b),1]")),"o":\#(value("100")),"r":1}"#
    }

    /// A black stroke: caps 1 butt, 2 round, 3 square; joins 1 miter, 2 round, 3 bevel; dashes as (dash, gap).
    public static func stroke(width: Double, cap: Int = 1, join: Int = 1, dash: (Double, Double)? = nil) -> String {
        let d = dash.map { #","d":[{"n":"d","v":\#(value("\($0.0)"))},{"n":"g","v":\#(value("\($0.1)"))},{"n":"o","v":\#(value("0"))}]"# } ?? ""
        return #"{"ty":"st","c":\#(value("[0,0,0,1]")),"o":\#(value("100")),"w":\#(value("\(width)")),"lc":\#(cap),"lj":\#(join),"ml":4\#(d)}"#
    }

    /// A gradient fill from `start` to `end` (type 1 linear, 2 radial) with `g`, Lottie's flat stop list, of `count` colour stops.
    public static func gradientFill(type: Int, start: (Double, Double), end: (Double, Double), count: Int, stops: [Double]) -> String {
        let list = stops.map { "\($0)" }.joined(separator: ",")
        return #"{"ty":"gf","o":\#(value("100")),"r":1,"t":\#(type),"s":\#(value("[\(start.0),\(start.1)]")),"e":\#(value("[\(end.0),\(end.1)]")),"g":{"p":\#(count),"k":\#(value("[\(list)]"))}}"#
    }

    public static func trim(start: Double, end: Double) -> String {
        #"{"ty":"tm","s":\#(value("\(start)")),"e":\#(value("\(end)")),"o":\#(value("0")),"m":1}"#
    }

    /// Writes `text` to a new file in a new test folder (`TestFolders`) and returns its path.
    public static func write(_ text: String, name: String = "fixture.json") throws -> String {
        let path = try TestFolders.make("lottie") + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The every-effect loop's file: a rectangle moving right, a stroked
    /// line trimmed over time (an outline that changes), a parent.
    public static var everyEffect: String {
        file([
            shapeLayer(index: 1, items: [line([(10, 70), (90, 70)]), trim(start: 0, end: 100), stroke(width: 8, cap: 2)], parent: 3),
            shapeLayer(index: 2, items: [rectangle(x: 10, y: 10, width: 30, height: 30), fill(1, 0.2, 0.2)],
                       position: keyframes([(0, "[0,0]"), (20, "[50,20]")])),
            #"{"ddd":0,"ind":3,"ty":3,"nm":"parent","ks":\#(transform(position: keyframes([(0, "[0,0]"), (20, "[0,-20]")]))),"ip":0,"op":20,"st":0,"sr":1}"#,
        ]).replacingOccurrences(of: #""e":\#(value("100.0"))"#, with: #""e":\#(keyframes([(0, "[10]"), (20, "[100]")]))"#)
    }
}
