fn main() -> miette::Result<()> {
    let path = std::env::args().nth(1).unwrap_or_default();
    let text = std::fs::read_to_string(&path).map_err(|e| miette::miette!("{e}"))?;
    let src = qili::lang::Source::new(path, text);
    let book = qili::lang::parse(&src)?;
    println!("{:#?}", book.header);
    println!("{} items", book.items.len());
    Ok(())
}
