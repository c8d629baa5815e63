//! fio JSON and json+ (fio 2.x and 3.x, standalone and client/server):
//! serde mirror structs of fio's writer in `stat.c`/`client.c`, and their
//! conversion to rows.
