//! The opening book written by `train book` (docs/book.md): do not edit.
//! Rebuild it from the committed search records with `cargo run --release -p train -- book-write`.
//!
//! 316 positions of the 784 searched (search depths {14}), walk margin 6 discs,
//! 4 plies per disc of loss; start position +2 discs; principal line (14 plies):
//! d3c5f6f5e6e3c3f3c4b4b3d6c7c2

/// Positions in the book.
pub const POSITIONS: usize = 316;
/// The packed book (171 characters; see `book::code`).
pub const DATA: &str = "瓱㭵䞿蒗孾艭窻鈵ꋵ䬹㺤鴽峨傲䛬葷魏赶䍘穅ꚤ駔綄嫵軵犪赣嶤䮾趪桕䁚囵疽ꕆ太豕财饒暽ꕋ奈芕䵖靓沕螤꒕蚵劮䥞㨶葕㫵蔫饇躵梊跒蟔䕒㚤㽕齻嵷澭洓譤蒚穀蔩彧浪蚶饓贲㦮閯塛筚躤赡䩀趕趕岗蜥蚶趪嫶䪔꒮菞蒭溺婝蘥䕞貖嬗褙躣䎼鑯暫褪ꪨ犔動斪届艕餩騞腞芽䕵曉夷賵璩奒鬻鵳川䬥䎩䊵꘭细蚵楯蒫嵐ꪆ䛖ꩊ䥲㧴皋輥仪益螫哓匍宲蚵媥㭞垕蔬藵㽒淉閭啪偅銪㽘脕䗬蚯奒胶髵巕藄孒喨瀀";
