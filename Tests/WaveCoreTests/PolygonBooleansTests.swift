import WaveCore
import XCTest

/// Polygon booleans against areas worked out by hand: two 40-unit squares
/// overlapping in a 20-unit one; a coordinate out of range is refused.
final class PolygonBooleansTests: XCTestCase {
    func square(_ x: Double, _ y: Double, _ side: Double, reversed: Bool = false) -> Polyline {
        let corners = [Point(x, y), Point(x + side, y), Point(x + side, y + side), Point(x, y + side)]
        return Polyline(reversed ? corners.reversed() : corners, closed: true)
    }

    /// The area the non-zero rule fills (signed areas of outlines and holes added, as they wind opposite ways).
    func area(_ lines: [Polyline]) -> Double {
        abs(lines.reduce(0) { total, line in
            let p = line.points
            return total + p.indices.reduce(0) { $0 + (p[$1].x * p[($1 + 1) % p.count].y - p[($1 + 1) % p.count].x * p[$1].y) / 2 }
        })
    }

    func testTheFourOperationsOnTwoOverlappingSquares() throws {
        let a = [square(20, 20, 40)], b = [square(40, 40, 40)]
        for (operation, expected) in [(PolygonBooleans.Operation.union, 2800.0), (.difference, 1200), (.intersection, 400), (.exclusiveOr, 2400)] {
            let result = try XCTUnwrap(PolygonBooleans.combine(a, operation, b))
            XCTAssertEqual(area(result), expected, accuracy: 1e-6, "\(operation)")
            XCTAssertTrue(result.allSatisfy(\.isClosed))
        }
        // Each set filled by the non-zero rule: a square inside a reversed square is a hole in it.
        let ring = [square(0, 0, 100), square(25, 25, 50, reversed: true)]
        XCTAssertEqual(area(try XCTUnwrap(PolygonBooleans.combine(ring, .union, []))), 7500, accuracy: 1e-6)
        XCTAssertEqual(area(try XCTUnwrap(PolygonBooleans.combine(ring, .intersection, [square(40, 40, 20)]))), 0, accuracy: 1e-6)
    }

    func testCoordinatesBeyondTheLibrarysRangeAreRefused() {
        XCTAssertNil(PolygonBooleans.combine([square(0, 0, 1e20)], .union, []))
        XCTAssertNil(PolygonBooleans.combine([Polyline([Point(0, 0), Point(.nan, 1), Point(1, 1)], closed: true)], .union, []))
    }
}
