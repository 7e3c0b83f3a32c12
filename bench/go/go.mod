module github.com/datoteca/datoteca/bench/go

go 1.22

require github.com/datoteca/datoteca v0.0.0

require github.com/brianvoe/gofakeit/v7 v7.18.2

replace github.com/datoteca/datoteca => ../..
