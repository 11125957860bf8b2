import type { Operation } from '../operation';
import { defineResource } from '../resource';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

const list: Operation[] = [moderate, get];

export const { operations, description } = defineResource('image', list, { default: 'moderate' });
