import { Box, Button, Input, Text } from '@mantine/core';
import { SIGNATURE_MAX_LENGTH } from '@tumble/contracts/waiver';
import { type PointerEvent as ReactPointerEvent, useEffect, useId, useRef, useState } from 'react';

/** Height of the drawing area in CSS pixels: room for a signature on a phone without much scrolling. */
export const SIGNATURE_PAD_HEIGHT = 180;
const LINE_WIDTH = 2.5;
const INK = '#1a1b1e';

interface Point {
  x: number;
  y: number;
}

interface SignaturePadProps {
  /** After each stroke: the drawing as a PNG data URL; null once cleared. */
  onChange: (signature: string | null) => void;
  error?: string;
  disabled?: boolean;
}

/**
 * A box to sign in with a finger, a pen or the mouse (pointer events cover all three). The drawing
 * is kept as strokes in CSS pixels, so it can be redrawn sharply when the box changes size.
 */
export function SignaturePad({ onChange, error, disabled = false }: SignaturePadProps) {
  const id = useId();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const strokes = useRef<Point[][]>([]);
  const activePointer = useRef<number | null>(null);
  const [drawn, setDrawn] = useState(false);
  // The resize observer outlives renders; it reports through the latest onChange.
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let width = -1;
    const fit = () => {
      // Setting the size wipes the canvas: only when the width really changed (a phone turned).
      if (canvas.clientWidth === width) return;
      width = canvas.clientWidth;
      fitCanvas(canvas, strokes.current);
      if (strokes.current.length > 0) onChangeRef.current(exportPng(canvas));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => observer.disconnect();
  }, []);

  function start(event: ReactPointerEvent<HTMLCanvasElement>) {
    if (disabled || activePointer.current !== null) return;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    const canvas = event.currentTarget;
    // Keeps the pen's moves coming to this box even when it slips past the edge.
    canvas.setPointerCapture?.(event.pointerId);
    activePointer.current = event.pointerId;
    const point = pointIn(canvas, event);
    strokes.current.push([point]);
    const context = canvas.getContext('2d');
    if (context) drawDot(context, point);
  }

  function move(event: ReactPointerEvent<HTMLCanvasElement>) {
    if (event.pointerId !== activePointer.current) return;
    const canvas = event.currentTarget;
    const stroke = strokes.current.at(-1);
    if (!stroke) return;
    const context = canvas.getContext('2d');
    // Fast strokes deliver several positions per event; using them all keeps curves smooth.
    const coalesced = event.nativeEvent.getCoalescedEvents?.() ?? [];
    const moves = coalesced.length > 0 ? coalesced : [event.nativeEvent];
    for (const each of moves) {
      const point = pointIn(canvas, each);
      const previous = stroke.at(-1) ?? point;
      if (context) drawSegment(context, previous, point);
      stroke.push(point);
    }
  }

  function end(event: ReactPointerEvent<HTMLCanvasElement>) {
    if (event.pointerId !== activePointer.current) return;
    activePointer.current = null;
    setDrawn(true);
    onChange(exportPng(event.currentTarget));
  }

  function clear() {
    const canvas = canvasRef.current;
    strokes.current = [];
    activePointer.current = null;
    if (canvas) fitCanvas(canvas, []);
    setDrawn(false);
    onChange(null);
  }

  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <Input.Wrapper
      label="Signature"
      labelElement="div"
      withAsterisk
      error={error}
      errorProps={{ id: errorId }}
      description="Sign in the box with your finger, a pen or the mouse."
      descriptionProps={{ id: hintId }}
    >
      <Box
        mt={6}
        pos="relative"
        bg="white"
        style={{
          border: `1px solid ${error ? 'var(--mantine-color-error)' : 'var(--mantine-color-gray-4)'}`,
          borderRadius: 'var(--mantine-radius-md)',
          overflow: 'hidden',
        }}
      >
        <canvas
          ref={canvasRef}
          role="img"
          aria-label="Signature"
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onPointerDown={start}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
          style={{
            display: 'block',
            width: '100%',
            height: SIGNATURE_PAD_HEIGHT,
            // Without this a phone scrolls the page instead of drawing.
            touchAction: 'none',
            userSelect: 'none',
            cursor: disabled ? 'not-allowed' : 'crosshair',
          }}
        />
        {drawn ? null : (
          <Text
            aria-hidden="true"
            c="dimmed"
            size="sm"
            pos="absolute"
            left={16}
            bottom={12}
            style={{ pointerEvents: 'none' }}
          >
            Sign here
          </Text>
        )}
        {/* In the box's corner, so the error message sits right under the box. */}
        <Button
          variant="subtle"
          size="compact-sm"
          pos="absolute"
          top={6}
          right={6}
          onClick={clear}
          disabled={disabled || !drawn}
        >
          Clear
        </Button>
      </Box>
    </Input.Wrapper>
  );
}

function pointIn(canvas: HTMLCanvasElement, event: { clientX: number; clientY: number }): Point {
  const box = canvas.getBoundingClientRect();
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}

/**
 * Sizes the canvas's pixels to the screen's density so strokes stay sharp on phones (a 2x or 3x
 * screen), draws in CSS pixels through the scale, and redraws the strokes kept so far.
 */
function fitCanvas(canvas: HTMLCanvasElement, kept: Point[][]): void {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(canvas.clientWidth * ratio);
  canvas.height = Math.round(SIGNATURE_PAD_HEIGHT * ratio);
  // null only without a real canvas (jsdom in the web tests); browsers always give a 2D context.
  const context = canvas.getContext('2d');
  if (!context) return;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.lineWidth = LINE_WIDTH;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.strokeStyle = INK;
  context.fillStyle = INK;
  for (const stroke of kept) {
    const [first, ...rest] = stroke;
    if (!first) continue;
    drawDot(context, first);
    let previous = first;
    for (const point of rest) {
      drawSegment(context, previous, point);
      previous = point;
    }
  }
}

/** A tap leaves a dot, as a pen on paper would. */
function drawDot(context: CanvasRenderingContext2D, point: Point): void {
  context.beginPath();
  context.arc(point.x, point.y, LINE_WIDTH / 2, 0, Math.PI * 2);
  context.fill();
}

function drawSegment(context: CanvasRenderingContext2D, from: Point, to: Point): void {
  context.beginPath();
  context.moveTo(from.x, from.y);
  context.lineTo(to.x, to.y);
  context.stroke();
}

/**
 * The drawing as a PNG data URL. A wide, dense screen can pass the server's size limit; then a
 * copy at one pixel per CSS pixel is sent, which still reads well.
 */
function exportPng(canvas: HTMLCanvasElement): string {
  const png = canvas.toDataURL('image/png');
  if (png.length <= SIGNATURE_MAX_LENGTH) return png;
  const copy = document.createElement('canvas');
  copy.width = canvas.clientWidth;
  copy.height = SIGNATURE_PAD_HEIGHT;
  const context = copy.getContext('2d');
  if (!context) return png;
  context.drawImage(canvas, 0, 0, copy.width, copy.height);
  return copy.toDataURL('image/png');
}
