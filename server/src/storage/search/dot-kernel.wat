;; Dot products of one float query against n stored int8 vectors, SIMD with 4 accumulators.
;; Vectors are rows of `stride` signed bytes (stride a multiple of 16, zero padded); the query is
;; `stride` f32. Each 16 codes widen i8 → i16 → i32 → f32 and multiply 16 query floats.
;; scores(vec, n, stride, query, out): out[i] = dot(vec[i], query) for i in 0..n (byte pointers).
;; Compiled into dot-kernel.wasm.ts by server/scripts/build-dot-kernel.mjs (wabt, dev time only).
(module
  (memory (export "memory") 1)
  (func (export "scores") (param $vec i32) (param $n i32) (param $stride i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32) (local $qp i32) (local $end i32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $s v128)
    (local $codes v128) (local $lo v128) (local $hi v128)
    (local.set $p (local.get $vec))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a0 (v128.const f32x4 0 0 0 0))
        (local.set $a1 (v128.const f32x4 0 0 0 0))
        (local.set $a2 (v128.const f32x4 0 0 0 0))
        (local.set $a3 (v128.const f32x4 0 0 0 0))
        (local.set $qp (local.get $q))
        (local.set $end (i32.add (local.get $p) (local.get $stride)))
        (loop $cols
          (local.set $codes (v128.load (local.get $p)))
          (local.set $lo (i16x8.extend_low_i8x16_s (local.get $codes)))
          (local.set $hi (i16x8.extend_high_i8x16_s (local.get $codes)))
          (local.set $a0 (f32x4.add (local.get $a0)
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $lo))) (v128.load (local.get $qp)))))
          (local.set $a1 (f32x4.add (local.get $a1)
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $lo))) (v128.load offset=16 (local.get $qp)))))
          (local.set $a2 (f32x4.add (local.get $a2)
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (local.get $hi))) (v128.load offset=32 (local.get $qp)))))
          (local.set $a3 (f32x4.add (local.get $a3)
            (f32x4.mul (f32x4.convert_i32x4_s (i32x4.extend_high_i16x8_s (local.get $hi))) (v128.load offset=48 (local.get $qp)))))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (local.set $qp (i32.add (local.get $qp) (i32.const 64)))
          (br_if $cols (i32.lt_u (local.get $p) (local.get $end))))
        (local.set $s (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
        (f32.store
          (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $s)) (f32x4.extract_lane 1 (local.get $s)))
            (f32.add (f32x4.extract_lane 2 (local.get $s)) (f32x4.extract_lane 3 (local.get $s)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rows)))))
