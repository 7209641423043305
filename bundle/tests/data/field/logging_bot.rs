// A bot with its own debug-logging macros, as many CodinGame bots have:
// `log!` forwards to `eprintln!` (the referee shows stderr), `trace!` prints
// an expression with its text and its line, `answer!` writes the command.
use std::io::{self, Read};
use std::time::Instant;

macro_rules! log {
    ($($arg:tt)*) => {
        if DEBUG {
            eprintln!($($arg)*);
        }
    };
}

macro_rules! trace {
    ($e:expr) => {
        eprintln!("[line {}] {} = {:?}", line!(), stringify!($e), $e)
    };
}

macro_rules! answer {
    ($($arg:tt)*) => {{
        println!($($arg)*);
    }};
}

const DEBUG: bool = true;
const MAX_SPEED: f64 = 100.0;
const TURN_WEIGHT: f64 = 0.25;

#[derive(Clone, Copy)]
struct Pod {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
}

fn distance(ax: f64, ay: f64, bx: f64, by: f64) -> f64 {
    ((ax - bx).powi(2) + (ay - by).powi(2)).sqrt()
}

fn thrust_for(pod: &Pod, target_x: f64, target_y: f64) -> u32 {
    let dist = distance(pod.x, pod.y, target_x, target_y);
    let speed = (pod.vx * pod.vx + pod.vy * pod.vy).sqrt();
    let brake = if dist < 4.0 * speed { 0.5 } else { 1.0 };
    let raw = (dist * TURN_WEIGHT).min(MAX_SPEED) * brake;
    log!("dist={dist:.1} speed={speed:.1} brake={brake}");
    raw.round() as u32
}

fn main() {
    let started = Instant::now();
    let mut input = String::new();
    io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input.split_ascii_whitespace().map(|t| t.parse::<f64>().unwrap());
    let turns = numbers.next().unwrap() as usize;
    let mut total_thrust = 0;
    let window = 0. ..1.;
    for turn in 0..turns {
        let mut next = || numbers.next().unwrap();
        let pod = Pod { x: next(), y: next(), vx: next(), vy: next() };
        let (target_x, target_y) = (next(), next());
        let thrust = thrust_for(&pod, target_x, target_y);
        total_thrust += thrust;
        log!("turn {turn}: pod at ({}, {}) -> {target_x} {target_y}", pod.x, pod.y);
        trace!(thrust * 2 + 1);
        let fraction = turn as f64 / turns as f64;
        if window.contains(&fraction) {
            answer!("{} {} {thrust}", target_x as i64, target_y as i64);
        }
    }
    trace!(total_thrust);
    log!("line {} done; elapsed is measured, not printed: {}", line!(), started.elapsed().as_secs() < 60);
}
