//! Times each front-end stage on one file, and prints the sizes of the AST
//! nodes that sit on the parser's stack (a profiling aid, not a test):
//! `cargo run --release -p clc --example stages bench/out/frontend_50000.cl`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: stages FILE");
    let text = std::fs::read_to_string(&path).unwrap();
    {
        use clc::parse::ast::*;
        use std::mem::size_of;
        println!("Expr {} Stmt {} StmtKind {} Decl {} DeclSpecs {} DeclSpec {} TypeSpec {} Declarator {} FunctionDef {} ExternalDecl {} Initializer {} InitDeclarator {} TypeName {} ParamDecl {} Attribute {} StructSpec {}",
            size_of::<Expr>(), size_of::<Stmt>(), size_of::<StmtKind>(), size_of::<Decl>(), size_of::<DeclSpecs>(), size_of::<DeclSpec>(), size_of::<TypeSpec>(), size_of::<Declarator>(), size_of::<FunctionDef>(), size_of::<ExternalDecl>(), size_of::<Initializer>(), size_of::<InitDeclarator>(), size_of::<TypeName>(), size_of::<ParamDecl>(), size_of::<Attribute>(), size_of::<StructSpec>());
    }
    for _ in 0..3 {
        let t0 = std::time::Instant::now();
        let mut sm = clc::source::SourceMap::new();
        let main = sm.add_real(std::path::Path::new(&path), text.clone());
        let mut diags = clc::diag::Diagnostics::default();
        let lexed = clc::lex::lex(main, &text).len();
        let t1 = std::time::Instant::now();
        let out = clc::pp::preprocess(&mut sm, main, &Default::default(), &mut diags);
        let t2 = std::time::Instant::now();
        let tu = clc::parse::parse(&sm, &out, clc::options::ClStd::Cl20, &mut diags);
        let t3 = std::time::Instant::now();
        let mut opts = clc::sema::SemaOptions::new(clc::options::ClStd::Cl20, clc::options::Target::Host, &out.pragmas);
        opts.build_program = false;
        let _ = clc::sema::check(&tu, &opts, &mut diags);
        let t3b = std::time::Instant::now();
        opts.build_program = true;
        let program = clc::sema::check(&tu, &opts, &mut diags);
        println!("sema with the typed program: {:?} ({} functions)", t3b.elapsed(), program.functions.len());
        let t4 = std::time::Instant::now();
        drop(tu);
        let t5 = std::time::Instant::now();
        println!("lex {:?} ({lexed} tokens) | pp {:?} ({} tokens, {} files) | parse {:?} | sema check-only {:?} | drop {:?} | {} diags",
            t1 - t0, t2 - t1, out.tokens.len(), sm.len(), t3 - t2, t3b - t3, t5 - t4, diags.len());
    }
}
