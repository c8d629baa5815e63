//! Where point labels go so that none overlaps another label, a marker, a
//! line or the plot's edge: each label tries a few spots around its point,
//! nearest first, and takes the first free one; a label with no free spot
//! is left out (the plot says so) rather than drawn over another.

/// A box in pixels: left, top, right, bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rect {
    pub l: i32,
    pub t: i32,
    pub r: i32,
    pub b: i32,
}

impl Rect {
    pub fn at(l: i32, t: i32, w: i32, h: i32) -> Rect {
        Rect {
            l,
            t,
            r: l + w,
            b: t + h,
        }
    }

    /// A square of half-side `r` around a point.
    pub fn around((x, y): (i32, i32), r: i32) -> Rect {
        Rect {
            l: x - r,
            t: y - r,
            r: x + r,
            b: y + r,
        }
    }

    fn overlaps(&self, o: &Rect) -> bool {
        self.l < o.r && o.l < self.r && self.t < o.b && o.t < self.b
    }

    fn inside(&self, o: &Rect) -> bool {
        self.l >= o.l && self.r <= o.r && self.t >= o.t && self.b <= o.b
    }

    fn contains(&self, (x, y): (i32, i32)) -> bool {
        x >= self.l && x <= self.r && y >= self.t && y <= self.b
    }

    /// True when the segment a-b passes through the box: an end inside,
    /// or it crosses one of the four edges.
    fn crossed_by(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        if self.contains(a) || self.contains(b) {
            return true;
        }
        let corners = [
            (self.l, self.t),
            (self.r, self.t),
            (self.r, self.b),
            (self.l, self.b),
        ];
        (0..4).any(|i| segments_cross(a, b, corners[i], corners[(i + 1) % 4]))
    }
}

/// Which side of the line p-q the point r is on (sign of the cross product).
fn side(p: (i32, i32), q: (i32, i32), r: (i32, i32)) -> i64 {
    let (px, py, qx, qy, rx, ry) = (
        i64::from(p.0),
        i64::from(p.1),
        i64::from(q.0),
        i64::from(q.1),
        i64::from(r.0),
        i64::from(r.1),
    );
    ((qx - px) * (ry - py) - (qy - py) * (rx - px)).signum()
}

/// Proper crossing of segments a-b and c-d (touching ends do not count).
fn segments_cross(a: (i32, i32), b: (i32, i32), c: (i32, i32), d: (i32, i32)) -> bool {
    side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0
}

/// Boxes taken so far inside the plot's bounds.
pub(crate) struct Placer {
    bounds: Rect,
    taken: Vec<Rect>,
    /// Drawn line segments no label may cross.
    lines: Vec<((i32, i32), (i32, i32))>,
}

impl Placer {
    pub fn new(bounds: Rect) -> Placer {
        Placer {
            bounds,
            taken: Vec::new(),
            lines: Vec::new(),
        }
    }

    /// Marks `r` as taken (a marker, a line label).
    pub fn block(&mut self, r: Rect) {
        self.taken.push(r);
    }

    /// Marks the segments of a drawn line (pixel points in order).
    pub fn block_line(&mut self, points: &[(i32, i32)]) {
        self.lines.extend(points.windows(2).map(|p| (p[0], p[1])));
    }

    fn is_free(&self, r: &Rect) -> bool {
        r.inside(&self.bounds)
            && !self.taken.iter().any(|o| o.overlaps(r))
            && !self.lines.iter().any(|(a, b)| r.crossed_by(*a, *b))
    }

    /// The first free box of `spots`, taken; None when none is free.
    pub fn first_free(&mut self, spots: &[Rect]) -> Option<Rect> {
        let free = *spots.iter().find(|r| self.is_free(r))?;
        self.taken.push(free);
        Some(free)
    }

    /// The first free spot for a `w` x `h` label next to `point`, `gap`
    /// pixels away: right, left, above, below, then the diagonals. The spot
    /// is taken; None when every spot is.
    pub fn place(&mut self, point: (i32, i32), (w, h): (i32, i32), gap: i32) -> Option<Rect> {
        let (x, y) = point;
        let spots = [
            (x + gap, y - h / 2),
            (x - gap - w, y - h / 2),
            (x - w / 2, y - gap - h),
            (x - w / 2, y + gap),
            (x + gap, y - gap - h),
            (x - gap - w, y - gap - h),
            (x + gap, y + gap),
            (x - gap - w, y + gap),
        ];
        let spots: Vec<Rect> = spots.iter().map(|(l, t)| Rect::at(*l, *t, w, h)).collect();
        self.first_free(&spots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_never_overlap_and_stay_inside() {
        let mut p = Placer::new(Rect::at(0, 0, 200, 100));
        let points = [(50, 50), (52, 50), (54, 51), (56, 50), (58, 49)];
        for pt in points {
            p.block(Rect::around(pt, 3));
        }
        let placed: Vec<Rect> = points
            .iter()
            .filter_map(|pt| p.place(*pt, (30, 12), 6))
            .collect();
        assert!(placed.len() >= 4, "{placed:?}");
        for (i, a) in placed.iter().enumerate() {
            assert!(a.inside(&Rect::at(0, 0, 200, 100)));
            for b in &placed[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} {b:?}");
            }
        }
        // A crowded corner: the label that cannot fit is left out.
        let mut p = Placer::new(Rect::at(0, 0, 40, 20));
        assert!(p.place((5, 10), (30, 12), 4).is_some());
        assert!(p.place((6, 10), (30, 12), 4).is_none());
    }

    #[test]
    fn labels_keep_off_lines() {
        let mut p = Placer::new(Rect::at(0, 0, 200, 100));
        // A horizontal line through the point: the label goes above it.
        p.block_line(&[(0, 50), (200, 50)]);
        let r = p.place((100, 50), (30, 12), 6).unwrap();
        assert!(r.b < 50, "{r:?}");
        assert!(Rect::at(0, 0, 10, 10).crossed_by((-5, 5), (15, 5)));
        assert!(!Rect::at(0, 0, 10, 10).crossed_by((-5, 20), (15, 20)));
    }
}
