//! A grid bot in the style of CodinGame's multiplayer games: every type
//! documented, the command printed by its derived `Debug`.
//!
//! Input: a width and a height, the grid's rows, then the units' turns.

use std::collections::VecDeque;
use std::io::{self, BufRead};

/// A move on the grid. The bot prints it with `{:?}`: its variants are
/// the game's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dir {
    /// One row up.
    UP,
    /// One row down.
    DOWN,
    /// One column left.
    LEFT,
    /// One column right.
    RIGHT,
}

impl Dir {
    /// Every direction, in the order the bot tries them.
    const ALL: [Dir; 4] = [Dir::UP, Dir::RIGHT, Dir::DOWN, Dir::LEFT];

    /// The (dx, dy) step of the direction.
    fn delta(self) -> (i32, i32) {
        match self {
            Dir::UP => (0, -1),
            Dir::DOWN => (0, 1),
            Dir::LEFT => (-1, 0),
            Dir::RIGHT => (1, 0),
        }
    }
}

/// A cell's position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Pos {
    /// Column, from the left.
    x: i32,
    /// Row, from the top.
    y: i32,
}

/** The grid: walls and pellets, row by row. */
struct Grid {
    /// Width in cells.
    width: i32,
    /// Height in cells.
    height: i32,
    /// `#` for a wall, `.` for a pellet, ` ` for nothing.
    cells: Vec<Vec<char>>,
}

impl Grid {
    /// Whether `p` is inside and not a wall.
    fn free(&self, p: Pos) -> bool {
        p.x >= 0
            && p.y >= 0
            && p.x < self.width
            && p.y < self.height
            && self.cells[p.y as usize][p.x as usize] != '#'
    }

    /// The first step of a shortest path from `from` to the nearest pellet
    /// (breadth-first search), and the distance.
    fn nearest_pellet(&self, from: Pos) -> Option<(Dir, usize)> {
        let mut seen = vec![vec![false; self.width as usize]; self.height as usize];
        let mut queue = VecDeque::new();
        seen[from.y as usize][from.x as usize] = true;
        for dir in Dir::ALL {
            let (dx, dy) = dir.delta();
            let next = Pos { x: from.x + dx, y: from.y + dy };
            if self.free(next) {
                seen[next.y as usize][next.x as usize] = true;
                queue.push_back((next, dir, 1));
            }
        }
        while let Some((pos, first, distance)) = queue.pop_front() {
            if self.cells[pos.y as usize][pos.x as usize] == '.' {
                return Some((first, distance));
            }
            for dir in Dir::ALL {
                let (dx, dy) = dir.delta();
                let next = Pos { x: pos.x + dx, y: pos.y + dy };
                if self.free(next) && !seen[next.y as usize][next.x as usize] {
                    seen[next.y as usize][next.x as usize] = true;
                    queue.push_back((next, first, distance + 1));
                }
            }
        }
        None
    }
}

/// Reads the next line, trimmed of its line break.
fn read_line(lines: &mut impl Iterator<Item = String>) -> String {
    lines.next().expect("more input").trim_end().to_string()
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.unwrap());
    let header = read_line(&mut lines);
    let mut dims = header.split_whitespace().map(|v| v.parse::<i32>().unwrap());
    let (width, height) = (dims.next().unwrap(), dims.next().unwrap());
    let cells = (0..height)
        .map(|_| read_line(&mut lines).chars().collect())
        .collect();
    let mut grid = Grid { width, height, cells };
    let turns: usize = read_line(&mut lines).parse().unwrap();
    for turn in 0..turns {
        let line = read_line(&mut lines);
        let v: Vec<i32> = line.split_whitespace().map(|v| v.parse().unwrap()).collect();
        let me = Pos { x: v[0], y: v[1] };
        eprintln!("turn {} at {:?}", turn, me);
        match grid.nearest_pellet(me) {
            Some((dir, distance)) => {
                let (dx, dy) = dir.delta();
                let target = Pos { x: me.x + dx, y: me.y + dy };
                grid.cells[target.y as usize][target.x as usize] = ' ';
                // The command is the variant's name.
                println!("{:?} {}", dir, distance);
            }
            None => println!("WAIT"),
        }
    }
}
