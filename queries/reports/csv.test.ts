import test from 'ava';
import { csvField, csvText } from './csv.js';

test('a field with a comma, a quote, a carriage return or a line feed is quoted, its quotes doubled', (t) => {
  t.is(csvField('a,b'), '"a,b"');
  t.is(csvField('say "hi"'), '"say ""hi"""');
  t.is(csvField('line\rline'), '"line\rline"');
  t.is(csvField('line\nline'), '"line\nline"');
  t.is(csvField('all: ",\r\n'), '"all: "",\r\n"');
});

test('a field without those characters is written as it is, spaces, semicolons and Cyrillic included', (t) => {
  for (const s of ['', 'plain', ' padded ', 'a;b', 'Документ.РеализацияТоваров', "it's"]) t.is(csvField(s), s);
});

test('records become one line each, fields joined by commas, and a field with a line break stays one field', (t) => {
  t.is(csvText([['h1', 'h2'], ['1', 'a\r\nb'], ['x,y', '']]), 'h1,h2\n1,"a\r\nb"\n"x,y",\n');
  t.is(csvText([]), '');
});
