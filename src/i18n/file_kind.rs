//! What an upload really holds, named in both languages for `TradeMessage::BatchFileKind`.

/// What an upload really holds when it is neither a workbook nor text, told by its first
/// bytes (`orders::file_kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Pdf,
    /// An Excel 97-2003 workbook (.xls, an OLE2 compound file).
    OldExcel,
    Word,
    Zip,
    Png,
    Jpeg,
    Gif,
    Gzip,
    Rar,
    SevenZip,
    Binary,
}

impl FileKind {
    pub const ALL: [FileKind; 11] = [
        FileKind::Pdf,
        FileKind::OldExcel,
        FileKind::Word,
        FileKind::Zip,
        FileKind::Png,
        FileKind::Jpeg,
        FileKind::Gif,
        FileKind::Gzip,
        FileKind::Rar,
        FileKind::SevenZip,
        FileKind::Binary,
    ];

    pub fn en_name(self) -> &'static str {
        match self {
            FileKind::Pdf => "a PDF document",
            FileKind::OldExcel => "an old Excel 97-2003 workbook (.xls)",
            FileKind::Word => "a Word document",
            FileKind::Zip => "a ZIP archive",
            FileKind::Png => "a PNG image",
            FileKind::Jpeg => "a JPEG image",
            FileKind::Gif => "a GIF image",
            FileKind::Gzip => "a GZIP archive",
            FileKind::Rar => "a RAR archive",
            FileKind::SevenZip => "a 7z archive",
            FileKind::Binary => "binary data",
        }
    }

    pub fn zh_name(self) -> &'static str {
        match self {
            FileKind::Pdf => " PDF 文档",
            FileKind::OldExcel => "旧版 Excel 97-2003 工作簿 (.xls)",
            FileKind::Word => " Word 文档",
            FileKind::Zip => " ZIP 压缩包",
            FileKind::Png => " PNG 图片",
            FileKind::Jpeg => " JPEG 图片",
            FileKind::Gif => " GIF 图片",
            FileKind::Gzip => " GZIP 压缩包",
            FileKind::Rar => " RAR 压缩包",
            FileKind::SevenZip => " 7z 压缩包",
            FileKind::Binary => "二进制数据",
        }
    }
}
