module github.com/datoteca/datoteca

go 1.19
