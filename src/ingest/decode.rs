//! Bytes to text: UTF-8 with or without BOM, UTF-16LE/BE with BOM (Windows
//! PowerShell `>`), CRLF line ends; then splitting into JSON documents and
//! the text around them.
