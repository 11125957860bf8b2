import { defineResource } from '../resource';
import * as get from './get.operation';
import * as moderate from './moderate.operation';

export const { operations, description } = defineResource('image', [moderate, get], { default: 'moderate' });
